package io.lockchaos.cli;

import io.lockchaos.history.History;
import io.lockchaos.history.HistoryFiles;
import io.lockchaos.history.HistoryFormatException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reads a history file for a command, turning every failure into a one-line {@link UserError}. */
final class HistoryInput {
    private HistoryInput() {
    }

    static History read(Path file, HistoryFiles.Format format) {
        try {
            return HistoryFiles.read(file, format);
        } catch (HistoryFormatException e) {
            throw new UserError(e.getMessage());
        } catch (NoSuchFileException e) {
            throw new UserError(file + ": no such file");
        } catch (IOException e) {
            String m = e.getMessage();
            throw new UserError(m != null && m.startsWith(file + ": ") ? m : file + ": cannot read (" + m + ")");
        }
    }
}
