package io.lockchaos.agent;

import io.lockchaos.api.Backend;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.LockServers;
import io.lockchaos.api.Promises;
import io.lockchaos.api.ServerSlot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Loads a user's {@link LockFactory} by class name in an agent, turning every way it can fail into one line. */
final class UserFactories {
    private UserFactories() {
    }

    /** Why a user's class cannot serve: the message is the line the user sees. */
    static final class Unusable extends Exception {
        Unusable(String message) {
            super(message);
        }
    }

    /** {@code e} on one line: a user's exception may say more. */
    private static String oneLine(Object e) {
        return String.valueOf(e).replaceAll("\\s*\\R\\s*", " ");
    }

    static LockFactory load(String className) throws Unusable {
        Class<?> c;
        try {
            c = Class.forName(className, true, UserFactories.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new Unusable("lock_class: " + className + " is not on the lock's classpath (lock_jar)");
        } catch (LinkageError e) {
            throw new Unusable("lock_class: " + className + " does not load: " + oneLine(e));
        }
        if (!LockFactory.class.isAssignableFrom(c)) {
            throw new Unusable("lock_class: " + className + " does not implement " + LockFactory.class.getName());
        }
        try {
            return (LockFactory) c.getConstructor().newInstance();
        } catch (NoSuchMethodException e) {
            throw new Unusable("lock_class: " + className + " has no public constructor without arguments");
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw new Unusable("lock_class: " + className + "'s constructor threw " + oneLine(e.getCause()));
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            throw new Unusable("lock_class: " + className + " cannot be made: " + oneLine(e));
        }
    }

    /**
     * What the factory says of itself, for the runner: its promises and backend, for a lock on its own servers their
     * name and version and, when {@code slots} (the wire's {@code {"slots": [...]}}, or null) says where they run,
     * the command of each; or the line why it cannot.
     */
    static Map<String, Object> describe(LockFactory f, String slots) {
        Map<String, Object> m = new LinkedHashMap<>();
        try {
            Promises p = f.promises();
            if (p == null) {
                return Map.of("error", "lock_class: " + f.getClass().getName() + ".promises() returned null");
            }
            m.put("promises", p.words());
            if (f.backend() == null) {
                return Map.of("error", "lock_class: " + f.getClass().getName() + ".backend() returned null");
            }
            m.put("backend", f.backend().name());
            if (f.backend() == Backend.OWN) {
                String why = describeServers(f, slots, m);
                if (why != null) {
                    return Map.of("error", "lock_class: " + f.getClass().getName() + why);
                }
            }
        } catch (RuntimeException | LinkageError e) {
            return Map.of("error", "lock_class: " + f.getClass().getName() + " cannot say what it promises: "
                    + oneLine(e));
        }
        return m;
    }

    /** Adds the servers' name, version and commands to {@code m}; what is wrong with them (after the class name). */
    private static String describeServers(LockFactory f, String slots, Map<String, Object> m) {
        LockServers servers = f.servers();
        if (servers == null) {
            return ".servers() returned null, but its backend() is OWN: it must say how its servers start";
        }
        String name = servers.name();
        if (name == null || name.isBlank()) {
            return ".servers().name() is blank";
        }
        m.put("servers", name);
        m.put("servers_version", servers.version() == null ? "" : servers.version());
        if (slots == null) {
            return null;
        }
        List<Object> commands = new ArrayList<>();
        for (Object o : (List<?>) AgentWire.decode(slots).get("slots")) {
            ServerSlot slot = slot((Map<?, ?>) o);
            List<String> cmd;
            try {
                cmd = servers.command(slot);
            } catch (RuntimeException e) {
                return ".servers().command(" + slot.id() + ") threw " + oneLine(e);
            }
            if (cmd == null || cmd.isEmpty() || cmd.stream().anyMatch(java.util.Objects::isNull)
                    || cmd.get(0).isBlank()) {
                return ".servers().command(" + slot.id() + ") gave no program to run: " + cmd;
            }
            commands.add(List.copyOf(cmd));
        }
        m.put("commands", commands);
        return null;
    }

    /** A slot as the runner wrote it ({@code ServerSlots}' wire form). */
    private static ServerSlot slot(Map<?, ?> w) {
        return new ServerSlot(((Number) w.get("id")).intValue(), (String) w.get("host"),
                ((Number) w.get("port")).intValue(), Path.of((String) w.get("folder")), strings(w.get("peers")),
                strings(w.get("classpath")), texts((Map<?, ?>) w.get("settings")));
    }

    private static Map<String, String> texts(Map<?, ?> m) {
        Map<String, String> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(String.valueOf(k), String.valueOf(v)));
        return out;
    }

    private static List<String> strings(Object o) {
        return ((List<?>) o).stream().map(String::valueOf).toList();
    }
}
