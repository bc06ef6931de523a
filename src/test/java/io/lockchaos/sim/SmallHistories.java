package io.lockchaos.sim;

import io.lockchaos.checker.Recipe;
import io.lockchaos.history.EdnHistory;
import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.HistoryFormatException;
import io.lockchaos.history.HistoryWriter;
import io.lockchaos.history.JsonlHistoryReader;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import io.lockchaos.prop.Gen;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Small histories over the whole vocabulary of lock histories, for differential testing against a brute-force
 * oracle: keyless and keyed ops, multi-lock acquires, equal and stepping-back times and positional order without time
 * (through the JSONL and EDN readers), {@code info} at every point (outer and nested acquires, releases), connection
 * states with session ids, nemesis {@code expire}, {@code not-held} releases, reentry, semaphores, read/write with
 * downgrade and refused upgrades, fenced writes, adds and reads, heal and inspect.
 *
 * <p>Each history comes from a simulated lock service whose truth is known, so each case says what must hold by
 * construction: a service that never granted unsafely yields a history that some order of the model explains; one that
 * also never lost a session yields no mutual exclusion violation; an unsafe grant while another process held certainly
 * is a violation. Deterministic for a given random source.
 */
public final class SmallHistories {
    private SmallHistories() {
    }

    /**
     * A generated history and what its construction guarantees.
     *
     * @param recipe the recipe the simulated service implements
     * @param history the history
     * @param format how it was written and read back: memory, jsonl, jsonl-untimed or edn
     * @param unsafe whether the service granted while the recipe forbade it (or released a lock for a non-holder)
     * @param certainDoubleGrant whether an unsafe grant happened while a conflicting process certainly held the key
     * @param sessionLoss whether any session ended under a holder (expiry, LOST, not-held)
     */
    public record Case(Recipe recipe, History history, String format, boolean unsafe, boolean certainDoubleGrant,
                       boolean sessionLoss) {
        @Override
        public String toString() {
            StringBuilder s = new StringBuilder(recipe.name() + " (" + format + ", unsafe=" + unsafe + ", double="
                    + certainDoubleGrant + ", sessionLoss=" + sessionLoss + ")\n");
            for (Op op : history.ops()) {
                s.append("  ").append(HistoryWriter.toJsonLine(op)).append('\n');
            }
            return s.toString();
        }
    }

    /** Cases for a recipe picked from {@code recipes}, with at most {@code maxLockOps} acquires and releases. */
    public static Gen<Case> cases(List<Recipe> recipes, int maxLockOps) {
        return r -> generate(recipes.get(r.nextInt(recipes.size())), maxLockOps, r);
    }

    /** One case: a simulation of {@code recipe} with up to {@code maxLockOps} lock invocations. */
    public static Case generate(Recipe recipe, int maxLockOps, SplittableRandom r) {
        Sim s = new Sim(recipe, r, 2 + r.nextInt(2), r.nextInt(4) == 0, r.nextInt(3) == 0 ? 0.25 : 0.0);
        s.run(maxLockOps);
        String format = switch (r.nextInt(6)) {
            case 0 -> "jsonl";
            case 1 -> "jsonl-untimed";
            case 2 -> "edn";
            default -> "memory";
        };
        History h = History.ofValid(s.ops);
        try {
            h = switch (format) {
                case "jsonl" -> JsonlHistoryReader.read("gen.jsonl", new StringReader(jsonl(h, true)));
                case "jsonl-untimed" -> JsonlHistoryReader.read("gen.jsonl", new StringReader(jsonl(h, false)));
                case "edn" -> EdnHistory.read("gen.edn", edn(h));
                default -> h;
            };
        } catch (HistoryFormatException | IOException e) {
            throw new IllegalStateException("a generated history did not read back: " + e.getMessage(), e);
        }
        return new Case(recipe, h, format, s.unsafe, s.certainDouble, s.sessionLoss);
    }

    private static String jsonl(History h, boolean timed) {
        StringBuilder b = new StringBuilder();
        for (Op op : h.ops()) {
            String line = HistoryWriter.toJsonLine(op);
            b.append(timed ? line : line.replaceFirst("\"time\":-?\\d+,", "")).append('\n');
        }
        return b.toString();
    }

    private static String edn(History h) {
        StringBuilder b = new StringBuilder();
        for (Op op : h.ops()) {
            b.append(EdnHistory.toEdn(op)).append('\n');
        }
        return b.toString();
    }

    /** A hold the service granted. */
    private static final class ServerHold {
        final int process;
        final String mode;
        final long session;

        ServerHold(int process, String mode, long session) {
            this.process = process;
            this.mode = mode;
            this.session = session;
        }
    }

    /** A hold a process believes it has: its keys, mode, and the service's holds behind it (null if none). */
    private record Belief(String key, List<String> keys, String mode, List<ServerHold> server) {
    }

    /** A process's invocation in flight. */
    private record Pending(Fn f, String key, List<String> keys, String mode, Belief target) {
    }

    /** The simulation: a lock service, its clients, a nemesis. */
    private static final class Sim {
        final Recipe recipe;
        final SplittableRandom r;
        final int processes;
        final boolean keyless;
        final double bugRate;
        final String timeStyle;
        final List<Op> ops = new ArrayList<>();
        final Map<String, List<ServerHold>> server = new HashMap<>();
        final Map<Integer, List<Belief>> beliefs = new HashMap<>();
        final Map<Integer, Pending> pending = new HashMap<>();
        final Map<Integer, Long> session = new HashMap<>();
        final Map<Integer, Integer> processOf = new HashMap<>();
        final List<Integer> retiredSlots = new ArrayList<>();
        long time;
        long nextToken = 100;
        boolean unsafe;
        boolean certainDouble;
        boolean sessionLoss;
        boolean strayOk;

        Sim(Recipe recipe, SplittableRandom r, int processes, boolean keyless, double bugRate) {
            this.recipe = recipe;
            this.r = r;
            this.processes = processes;
            this.keyless = keyless;
            this.bugRate = bugRate;
            this.timeStyle = switch (r.nextInt(5)) {
                case 0 -> "equal";
                case 1 -> "dips";
                default -> "increasing";
            };
            for (int slot = 0; slot < processes; slot++) {
                processOf.put(slot, slot);
                session.put(slot, 1000L + slot);
            }
        }

        void emit(OpType type, int process, Fn f, String key, Object value, String error) {
            long t = switch (timeStyle) {
                case "equal" -> 0;
                case "dips" -> time += r.nextInt(4) == 0 ? -r.nextInt(3) : r.nextInt(1, 5);
                default -> time += r.nextInt(3);
            };
            ops.add(new Op(-1, Math.max(0, t), type, process, f, key, value, error));
        }

        void run(int maxLockOps) {
            int lockOps = 0;
            int steps = 0;
            while (steps++ < 200 && (lockOps < maxLockOps || !pending.isEmpty())) {
                int slot = r.nextInt(processes);
                int p = processOf.get(slot);
                Pending inFlight = pending.get(p);
                if (inFlight != null) {
                    complete(slot, p, inFlight);
                } else if (lockOps < maxLockOps) {
                    if (r.nextInt(8) == 0) {
                        noise(slot, p);
                    } else {
                        invoke(p);
                        lockOps++;
                    }
                }
            }
            if (r.nextBoolean()) {
                emit(OpType.INVOKE, Op.NEMESIS, Fn.HEAL, null, null, null);
                emit(OpType.INFO, Op.NEMESIS, Fn.HEAL, null, null, null);
                if (r.nextBoolean()) {
                    emit(OpType.INVOKE, Op.NEMESIS, Fn.INSPECT, null, null, null);
                    emit(OpType.OK, Op.NEMESIS, Fn.INSPECT, null, inspection(), null);
                }
            }
        }

        Map<String, Object> inspection() {
            List<Object> nodes = new ArrayList<>();
            List<Object> sessions = new ArrayList<>();
            for (Map.Entry<String, List<ServerHold>> e : server.entrySet()) {
                for (ServerHold s : e.getValue()) {
                    nodes.add(Map.of("key", e.getKey(), "node", e.getKey() + "/n", "owner", s.session));
                }
            }
            session.values().forEach(sessions::add);
            return Map.of("nodes", nodes, "sessions", sessions);
        }

        String pickKey() {
            return keyless ? null : r.nextBoolean() ? "/a" : "/b";
        }

        void invoke(int p) {
            List<Belief> mine = beliefs.computeIfAbsent(p, x -> new ArrayList<>());
            boolean release = !mine.isEmpty() && r.nextInt(3) != 0 || mine.isEmpty() && r.nextInt(12) == 0;
            if (release) {
                Belief target = mine.isEmpty() ? null : mine.get(mine.size() - 1);
                String key = target != null ? target.key() : pickKey();
                Map<String, Object> v = new LinkedHashMap<>();
                if (target != null && target.mode() != null) {
                    v.put("mode", target.mode());
                }
                // a keyless multi-lock must name its keys: a bare keyless release means the unnamed lock itself
                if (target != null && target.keys() != null && (target.key() == null || r.nextBoolean())) {
                    v.put("keys", target.keys());
                }
                emit(OpType.INVOKE, p, Fn.RELEASE, key, v.isEmpty() ? null : v, null);
                // where anyone may release, checkers pick the hold a stray release ends when it is invoked
                strayOk |= target == null && !recipe.ownerRelease();
                pending.put(p, new Pending(Fn.RELEASE, key, target == null ? null : target.keys(), null, target));
                return;
            }
            Map<String, Object> v = new LinkedHashMap<>();
            String key;
            List<String> keys = null;
            String mode = null;
            if (!mine.isEmpty() && r.nextBoolean()) {
                key = mine.get(mine.size() - 1).key(); // a re-acquire (or a downgrade or an upgrade)
                keys = mine.get(mine.size() - 1).keys();
            } else if (recipe.name().equals("multi") && r.nextBoolean()) {
                key = keyless ? null : "multi";
                keys = List.of("/a", "/b");
            } else {
                key = pickKey();
            }
            if (keys != null) {
                v.put("keys", keys);
            }
            if (recipe.readWrite()) {
                mode = r.nextBoolean() ? "read" : "write";
                v.put("mode", mode);
            }
            emit(OpType.INVOKE, p, Fn.ACQUIRE, key, v.isEmpty() ? null : v, null);
            pending.put(p, new Pending(Fn.ACQUIRE, key, keys, mode, null));
        }

        List<String> keysOf(String key, List<String> keys) {
            if (keys != null) {
                return keys;
            }
            return java.util.Collections.singletonList(key == null ? "" : key);
        }

        /** Whether the service may grant {@code p} the key in {@code mode} now. */
        boolean grantable(int p, String key, String mode) {
            List<ServerHold> hs = server.getOrDefault(key, List.of());
            boolean own = hs.stream().anyMatch(h -> h.process == p);
            if (recipe.isSemaphore()) {
                return hs.size() < recipe.capacity();
            }
            if (recipe.readWrite()) {
                if ("read".equals(mode)) {
                    return hs.stream().noneMatch(h -> h.process != p && "write".equals(h.mode));
                }
                boolean ownWrite = hs.stream().anyMatch(h -> h.process == p && "write".equals(h.mode));
                return ownWrite || hs.isEmpty(); // an upgrade (own reads only) is never granted
            }
            if (own) {
                return recipe.reentrant();
            }
            return hs.isEmpty();
        }

        /** Whether another process certainly holds the key in a mode that conflicts with {@code mode}. */
        boolean certainConflict(int p, String key, String mode) {
            int holders = 0;
            for (Map.Entry<Integer, List<Belief>> e : beliefs.entrySet()) {
                if (e.getKey() == p || retired(e.getKey())) {
                    continue;
                }
                Pending releasing = pending.get(e.getKey());
                for (Belief b : e.getValue()) {
                    if (!keysOf(b.key(), b.keys()).contains(key) || releasing != null && releasing.target() == b) {
                        continue; // a hold whose release is in flight is no longer certain
                    }
                    if (recipe.readWrite() && "read".equals(mode) && "read".equals(b.mode())) {
                        continue;
                    }
                    holders++;
                }
            }
            int own = 0;
            for (Belief b : beliefs.getOrDefault(p, List.of())) {
                own += keysOf(b.key(), b.keys()).contains(key) ? 1 : 0;
            }
            return recipe.isSemaphore() ? holders + own + 1 > recipe.capacity() : holders > 0;
        }

        boolean retired(int p) {
            return !processOf.containsValue(p);
        }

        void complete(int slot, int p, Pending x) {
            pending.remove(p);
            boolean info = r.nextInt(9) == 0;
            if (x.f() == Fn.ACQUIRE) {
                List<String> keys = keysOf(x.key(), x.keys());
                boolean ok = keys.stream().allMatch(k -> grantable(p, k, x.mode()));
                boolean bug = !ok && r.nextDouble() < bugRate;
                if (info) {
                    if ((ok || bug) && r.nextBoolean()) {
                        grant(p, keys, x.mode());
                        unsafe |= bug;
                    }
                    emit(OpType.INFO, p, Fn.ACQUIRE, x.key(), null, "timeout");
                    retire(slot, p);
                } else if (ok || bug) {
                    if (bug) {
                        unsafe = true;
                        certainDouble |= !strayOk && keys.stream().anyMatch(k -> certainConflict(p, k, x.mode()));
                    }
                    List<ServerHold> granted = grant(p, keys, x.mode());
                    beliefs.computeIfAbsent(p, y -> new ArrayList<>()).add(new Belief(x.key(), x.keys(), x.mode(),
                            granted));
                    long token = nextToken++;
                    long s = session.get(slot);
                    Map<String, Object> v = new LinkedHashMap<>();
                    v.put("node", keys.get(0) + "/lock-" + token);
                    v.put("token", token);
                    v.put("session", s);
                    v.put("owner", s);
                    v.put("seq", token);
                    emit(OpType.OK, p, Fn.ACQUIRE, x.key(), v, null);
                } else {
                    emit(OpType.FAIL, p, Fn.ACQUIRE, x.key(), null, "timeout");
                }
                return;
            }
            Belief target = x.target();
            if (target == null) {
                boolean bug = r.nextDouble() < bugRate;
                if (bug && !recipe.isSemaphore()) {
                    unsafe = true;
                    emit(OpType.OK, p, Fn.RELEASE, x.key(), null, null);
                } else {
                    emit(OpType.FAIL, p, Fn.RELEASE, x.key(), null, "not-owner");
                }
                return;
            }
            boolean present = target.server().stream().allMatch(h -> server.getOrDefault(keyOf(h), List.of())
                    .contains(h));
            if (info) {
                if (r.nextBoolean()) {
                    drop(target.server());
                }
                beliefs.get(p).remove(target);
                emit(OpType.INFO, p, Fn.RELEASE, x.key(), null, "timeout");
                retire(slot, p);
            } else if (!present) {
                drop(target.server());
                beliefs.get(p).remove(target);
                emit(OpType.FAIL, p, Fn.RELEASE, x.key(), null, "not-held");
            } else {
                drop(target.server());
                beliefs.get(p).remove(target);
                emit(OpType.OK, p, Fn.RELEASE, x.key(), null, null);
            }
        }

        final Map<ServerHold, String> keyOfHold = new HashMap<>();

        String keyOf(ServerHold h) {
            return keyOfHold.get(h);
        }

        List<ServerHold> grant(int p, List<String> keys, String mode) {
            List<ServerHold> out = new ArrayList<>();
            long s = session.get(slotOf(p));
            for (String k : keys) {
                ServerHold h = new ServerHold(p, mode, s);
                server.computeIfAbsent(k, y -> new ArrayList<>()).add(h);
                keyOfHold.put(h, k);
                out.add(h);
            }
            return out;
        }

        int slotOf(int p) {
            for (Map.Entry<Integer, Integer> e : processOf.entrySet()) {
                if (e.getValue() == p) {
                    return e.getKey();
                }
            }
            return -1;
        }

        void drop(List<ServerHold> hs) {
            for (ServerHold h : hs) {
                List<ServerHold> l = server.get(keyOf(h));
                if (l != null) {
                    l.remove(h);
                }
            }
        }

        /** The process is retired; its worker goes on as a new process with a new session, and maybe closes the old. */
        void retire(int slot, int p) {
            long old = session.get(slot);
            if (r.nextBoolean()) {
                endSession(old);
            }
            int next = p + processes;
            processOf.put(slot, next);
            session.put(slot, old + 100);
            beliefs.remove(p);
        }

        void endSession(long s) {
            for (List<ServerHold> l : server.values()) {
                l.removeIf(h -> h.session == s);
            }
        }

        /** Connection states, session expiry, fenced writes, adds and reads: what surrounds the lock ops. */
        void noise(int slot, int p) {
            long s = session.get(slot);
            boolean holds = !beliefs.getOrDefault(p, List.of()).isEmpty();
            switch (r.nextInt(6)) {
                case 0 -> {
                    // the service expires the session; the client hears LOST (or only SUSPENDED) and gets a new one
                    endSession(s);
                    sessionLoss |= holds;
                    emit(OpType.OK, p, Fn.STATE, null, Map.of("state", "SUSPENDED", "session", s), null);
                    if (r.nextBoolean()) {
                        emit(OpType.OK, p, Fn.STATE, null, Map.of("state", "LOST", "session", r.nextBoolean() ? s : 0L),
                                null);
                    }
                    session.put(slot, s + 100);
                    if (r.nextBoolean()) {
                        emit(OpType.OK, p, Fn.STATE, null, Map.of("state", "RECONNECTED", "session", s + 100), null);
                    }
                }
                case 1 -> {
                    boolean ok = r.nextInt(4) != 0;
                    emit(OpType.INVOKE, Op.NEMESIS, Fn.EXPIRE, null, Map.of("session", s), null);
                    if (ok || r.nextBoolean()) {
                        endSession(s);
                        sessionLoss |= holds;
                        session.put(slot, s + 100);
                    }
                    emit(ok ? OpType.OK : OpType.INFO, Op.NEMESIS, Fn.EXPIRE, null, Map.of("session", s), null);
                }
                case 2 -> {
                    long token = nextToken - 1;
                    emit(OpType.INVOKE, p, Fn.WRITE, "/register", Map.of("token", token), null);
                    emit(OpType.OK, p, Fn.WRITE, "/register", Map.of("token", token, "accepted", r.nextBoolean()),
                            null);
                }
                case 5 -> {
                    // a disconnection the session survives
                    emit(OpType.OK, p, Fn.STATE, null, Map.of("state", "SUSPENDED", "session", s), null);
                    emit(OpType.OK, p, Fn.STATE, null, Map.of("state", "RECONNECTED", "session", s), null);
                }
                case 3 -> {
                    long element = ops.size();
                    emit(OpType.INVOKE, p, Fn.ADD, "/set", element, null);
                    emit(OpType.OK, p, Fn.ADD, "/set", element, null);
                }
                default -> {
                    emit(OpType.INVOKE, p, Fn.READ, "/set", null, null);
                    List<Object> seen = new ArrayList<>();
                    for (Op op : ops) {
                        if (op.f() == Fn.ADD && op.type() == OpType.OK) {
                            seen.add(op.value());
                        }
                    }
                    emit(OpType.OK, p, Fn.READ, "/set", seen, null);
                }
            }
        }
    }
}
