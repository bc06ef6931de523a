package io.lockchaos.cli;

import io.lockchaos.history.EdnHistory;
import io.lockchaos.history.History;
import io.lockchaos.history.HistoryFormatException;
import io.lockchaos.history.JsonlHistoryReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reads a history file in either format, turning every failure into a one-line {@link UserError}. */
final class HistoryFiles {
    private HistoryFiles() {
    }

    enum Format { JSONL, EDN, AUTO }

    static History read(Path file, Format format) {
        Format f = format == Format.AUTO ? (file.toString().endsWith(".edn") ? Format.EDN : Format.JSONL) : format;
        try {
            if (Files.isDirectory(file)) {
                throw new UserError(file + ": is a directory, expected a history file");
            }
            return f == Format.EDN ? EdnHistory.read(file) : JsonlHistoryReader.read(file);
        } catch (HistoryFormatException e) {
            throw new UserError(e.getMessage());
        } catch (NoSuchFileException e) {
            throw new UserError(file + ": no such file");
        } catch (IOException e) {
            throw new UserError(file + ": cannot read (" + e.getMessage() + ")");
        }
    }
}
