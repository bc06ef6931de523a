package io.lockchaos.fault;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fault schedule: timed events in the main phase. Parsed from text whose entries are separated by {@code ;} or new
 * lines, each either an explicit event or a random mix:
 * <pre>
 * at 5s isolate holder for 6s
 * at 3s latency clients latency_ms=200 jitter_ms=50 for 4s
 * at 8s expire waiter
 * mix kill,pause,isolate-client every 5s for 3s from 2s
 * </pre>
 * A mix is expanded once, from the run's seed, into explicit events; {@link #timeline()} gives them back as text, so
 * a stored run replays its exact schedule.
 *
 * @param events the events, ordered by start time
 */
public record Schedule(List<FaultEvent> events) {
    private static final Pattern AT = Pattern.compile("at\\s+(\\S+)\\s+(\\S+)(.*?)(?:\\s+for\\s+(\\S+))?");
    private static final Pattern MIX = Pattern.compile("mix\\s+(\\S+)\\s+every\\s+(\\S+)\\s+for\\s+(\\S+)"
            + "(?:\\s+from\\s+(\\S+))?");
    /** {@code every TIME FAULT [TARGET] [key=N...] [from TIME]}: one instantaneous fault repeated. */
    private static final Pattern EVERY = Pattern.compile("every\\s+(\\S+)\\s+(\\S+)(.*?)(?:\\s+from\\s+(\\S+))?");
    private static final Pattern COMBINED = Pattern.compile("combined\\s+every\\s+(\\S+)\\s+for\\s+(\\S+)"
            + "(?:\\s+from\\s+(\\S+))?");
    private static final Pattern DURATION = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(ms|s|m)");
    private static final Pattern OPTION = Pattern.compile("([a-z_]+)=(-?[0-9]+)");

    public static final Schedule NONE = new Schedule(List.of());

    public Schedule {
        events = events.stream().sorted(Comparator.comparingLong(FaultEvent::atMillis)).toList();
    }

    public boolean isEmpty() {
        return events.isEmpty();
    }

    /** Whether any event needs a proxy per client and server. */
    public boolean needsClientProxies() {
        return events.stream().anyMatch(e -> e.fault().needsClientProxies());
    }

    /** Whether any event needs a proxy per directed pair of servers. */
    public boolean needsPeerProxies() {
        return events.stream().anyMatch(e -> e.fault().needsPeerProxies());
    }

    /**
     * How many servers the ensemble never had the schedule starts: each is laid out (ports, folder) before the run
     * and used once, so that a server that left is never asked to join again with a stale copy of the data.
     */
    public int newServers() {
        return events.stream().mapToInt(e -> e.fault().kind().newServers(e.fault())).sum();
    }

    /** Whether any event partitions the ensemble. */
    public boolean partitionsServers() {
        return events.stream().anyMatch(e -> e.fault().kind().partitionsServers());
    }

    /** Whether any event is a ring partition, which cuts nothing with fewer than 5 servers. */
    public boolean hasRing() {
        return events.stream().anyMatch(e -> e.fault().kind() == FaultKind.PARTITION_RING);
    }

    /** The events as timeline text, one entry each: parsing it gives this schedule back. */
    public List<String> timeline() {
        return events.stream().map(FaultEvent::toString).toList();
    }

    /** When the last fault ends, in ms after the main phase began. */
    public long endMillis() {
        return events.stream().mapToLong(e -> e.atMillis() + e.durationMillis()).max().orElse(0);
    }

    /**
     * Parses schedule text.
     *
     * @param seed expands random mixes
     * @param mainMillis the main phase's length: every event must start within it
     * @throws IllegalArgumentException with a one-line message quoting the entry at fault
     */
    public static Schedule parse(String text, long seed, long mainMillis) {
        return parse(text, seed, mainMillis, null);
    }

    /**
     * Parses a schedule whose {@code combined} entries draw from {@code combinable}: the faults (kind and target)
     * the run's backend and cluster take, as Jepsen's combined nemesis mixes every fault class a database supports.
     * Null refuses {@code combined} (what it draws from depends on the workload).
     */
    public static Schedule parse(String text, long seed, long mainMillis,
                                 java.util.function.Supplier<List<Fault>> combinable) {
        List<FaultEvent> events = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(seed);
        for (String raw : text.split("[;\\n]")) {
            String entry = raw.strip().toLowerCase(Locale.ROOT);
            if (entry.isEmpty()) {
                continue;
            }
            Matcher mix = MIX.matcher(entry);
            Matcher at = AT.matcher(entry);
            Matcher combined = COMBINED.matcher(intensity(entry));
            Matcher every = EVERY.matcher(entry);
            if (mix.matches()) {
                events.addAll(expandMix(entry, mix, random, mainMillis));
            } else if (combined.matches()) {
                if (combinable == null) {
                    throw new IllegalArgumentException("'" + entry + "': combined draws the faults a workload's"
                            + " backend takes: it needs a workload (recipe, nodes, cluster)");
                }
                events.addAll(expandCombined(entry, combined, random, mainMillis, combinable.get()));
            } else if (at.matches()) {
                events.add(event(entry, at, mainMillis));
            } else if (every.matches()) {
                events.addAll(expandEvery(entry, every, mainMillis));
            } else {
                throw new IllegalArgumentException("'" + entry + "': expected 'at TIME FAULT [TARGET] [key=N...]"
                        + " [for TIME]', 'mix FAULT,FAULT... every TIME for TIME [from TIME]',"
                        + " 'every TIME FAULT [TARGET] [key=N...] [from TIME]' or 'combined low|medium|high' or"
                        + " 'combined every TIME for TIME [from TIME]'");
            }
        }
        return new Schedule(events);
    }

    private static FaultEvent event(String entry, Matcher m, long mainMillis) {
        long at = millis(entry, m.group(1));
        String[] words = m.group(3).strip().isEmpty() ? new String[0] : m.group(3).strip().split("\\s+");
        String target = "";
        Map<String, Long> options = new LinkedHashMap<>();
        for (String w : words) {
            Matcher o = OPTION.matcher(w);
            if (o.matches()) {
                long v = Long.parseLong(o.group(2));
                if (v < 0 && !o.group(1).equals("by_ms")) { // only a clock moves backwards
                    throw new IllegalArgumentException("'" + entry + "': " + o.group(1) + " must not be negative");
                }
                options.put(o.group(1), v);
            } else if (target.isEmpty()) {
                target = w;
            } else {
                throw new IllegalArgumentException("'" + entry + "': unexpected '" + w + "'");
            }
        }
        FaultKind kind = kind(entry, m.group(2), target);
        if (target.isEmpty() || m.group(2).equals("partition")) {
            target = kind.defaultTarget();
        }
        if (!kind.accepts(target)) {
            throw new IllegalArgumentException("'" + entry + "': " + kind.wireName() + " takes "
                    + kind.describeTargets() + ", not '" + target + "'");
        }
        if (target.equals("releaser") && kind != FaultKind.ISOLATE_CLIENT && kind != FaultKind.PAUSE_CLIENT) {
            throw new IllegalArgumentException("'" + entry + "': only isolate and pause-client take releaser");
        }
        long duration = m.group(4) == null ? 0 : millis(entry, m.group(4));
        if (kind.instantaneous() && m.group(4) != null) {
            throw new IllegalArgumentException("'" + entry + "': " + kind.wireName() + " happens at an instant;"
                    + " drop 'for'");
        }
        if (!kind.instantaneous() && duration <= 0) {
            throw new IllegalArgumentException("'" + entry + "': " + kind.wireName() + " needs 'for TIME'");
        }
        if (at >= mainMillis) {
            throw new IllegalArgumentException("'" + entry + "': starts at " + at + " ms, after the main phase ("
                    + mainMillis + " ms)");
        }
        return new FaultEvent(at, new Fault(kind, target, options), duration);
    }

    /**
     * {@code every TIME FAULT ...}: the same instantaneous fault ({@code at} entry) at {@code from}, {@code from +
     * TIME} and so on to the end of the main phase; a fault with a duration takes a mix instead.
     */
    private static List<FaultEvent> expandEvery(String entry, Matcher m, long mainMillis) {
        long every = millis(entry, m.group(1));
        long from = m.group(4) == null ? 0 : millis(entry, m.group(4));
        if (every <= 0) {
            throw new IllegalArgumentException("'" + entry + "': every must be positive");
        }
        FaultKind named = FaultKind.parse(m.group(2));
        if (named != null && !named.instantaneous() || m.group(2).equals("isolate") || m.group(2).equals("partition")) {
            String k = named == null ? m.group(2) : named.wireName();
            throw new IllegalArgumentException("'" + entry + "': every repeats a fault that happens at an instant; " + k
                    + " lasts: use 'mix " + k + " every TIME for TIME'");
        }
        List<FaultEvent> out = new ArrayList<>();
        for (long t = from; t < mainMillis; t += every) {
            String one = "at " + t + "ms " + m.group(2) + m.group(3);
            Matcher at = AT.matcher(one);
            if (!at.matches()) {
                throw new IllegalArgumentException("'" + entry + "': expected 'every TIME FAULT [TARGET] [key=N...]"
                        + " [from TIME]'");
            }
            out.add(event(entry, at, mainMillis));
        }
        return out;
    }

    /** A kind by name, or by the aliases {@code isolate TARGET} and {@code partition SHAPE}. */
    private static FaultKind kind(String entry, String word, String target) {
        FaultKind k = FaultKind.parse(word);
        if (k == null && word.equals("isolate")) {
            k = FaultKind.ISOLATE_CLIENT.targets.accepts(target) ? FaultKind.ISOLATE_CLIENT
                    : FaultKind.ISOLATE_SERVER;
        }
        if (k == null && word.equals("partition")) {
            k = FaultKind.parse("partition-" + target);
        }
        if (k == null) {
            throw new IllegalArgumentException("'" + entry + "': unknown fault '" + word + "' (expected isolate,"
                    + " partition halves|ring|bridge, or one of " + kinds() + ")");
        }
        return k;
    }

    private static String kinds() {
        List<String> names = new ArrayList<>();
        for (FaultKind k : FaultKind.values()) {
            names.add(k.wireName());
        }
        return String.join(", ", names);
    }

    private static List<FaultEvent> expandMix(String entry, Matcher m, SplittableRandom random, long mainMillis) {
        List<FaultKind> kinds = new ArrayList<>();
        for (String name : m.group(1).split(",")) {
            FaultKind k = FaultKind.parse(name);
            if (k == null) {
                throw new IllegalArgumentException("'" + entry + "': unknown fault '" + name + "' in a mix (expected"
                        + " one of " + kinds() + ")");
            }
            kinds.add(k);
        }
        Slots slots = Slots.of(entry, m.group(2), m.group(3), m.group(4));
        long duration = slots.duration();
        List<FaultEvent> out = new ArrayList<>();
        for (long t = slots.from(); t < mainMillis; t += slots.every()) {
            FaultKind k = kinds.get(random.nextInt(kinds.size()));
            // packet-loss drops packets between servers only: drawing clients for it would refuse the mix by seed
            // (and releaser, data and the clock faults' client targets, added later, are left out so that the seeds
            // of older runs draw what they drew, a traffic mix stays on the lock's path, which every run has, and a
            // clock mix stays on servers, where every backend moves clocks)
            FaultKind.Targets drawn = k.targets == FaultKind.Targets.CLOCKS ? FaultKind.Targets.SERVERS : k.targets;
            List<String> targets = k == FaultKind.PACKET_LOSS ? List.of(k.defaultTarget())
                    : drawn.names.stream().filter(name -> !name.equals("releaser") && !name.equals("data")).sorted()
                    .toList();
            String target = targets.get(random.nextInt(targets.size()));
            out.add(new FaultEvent(t, new Fault(k, target, Map.of()), k.instantaneous() ? 0 : duration));
        }
        return out;
    }

    /**
     * {@code combined low}, {@code medium} and {@code high} in full: a fault of 3 s every 10 s, of 3 s every 5 s, of 1 s
     * every 2 s (the faults start 2 s, 2 s and 1 s into the main phase); anything else as it is.
     */
    static String intensity(String entry) {
        return switch (entry) {
            case "combined low" -> "combined every 10s for 3s from 2s";
            case "combined medium", "combined" -> "combined every 5s for 3s from 2s";
            case "combined high" -> "combined every 2s for 1s from 1s";
            default -> entry;
        };
    }

    private static List<FaultEvent> expandCombined(String entry, Matcher m, SplittableRandom random,
                                                   long mainMillis, List<Fault> pairs) {
        Slots slots = Slots.of(entry, m.group(1), m.group(2), m.group(3));
        if (pairs.isEmpty()) {
            throw new IllegalArgumentException("'" + entry + "': this workload takes none of the faults combined"
                    + " draws from");
        }
        List<FaultEvent> out = new ArrayList<>();
        for (long t = slots.from(); t < mainMillis; t += slots.every()) {
            Fault f = pairs.get(random.nextInt(pairs.size()));
            out.add(new FaultEvent(t, f, f.kind().instantaneous() ? 0 : slots.duration()));
        }
        return out;
    }

    /** The slots of a mix or a combined entry: a fault of {@code duration} every {@code every} from {@code from}. */
    private record Slots(long every, long duration, long from) {
        static Slots of(String entry, String every, String duration, String from) {
            Slots s = new Slots(millis(entry, every), millis(entry, duration), from == null ? 0 : millis(entry, from));
            if (s.every <= 0 || s.duration <= 0) {
                throw new IllegalArgumentException("'" + entry + "': every and for must be positive");
            }
            if (s.duration > s.every) {
                throw new IllegalArgumentException("'" + entry + "': faults of " + s.duration + " ms every "
                        + s.every + " ms would overlap; make 'for' at most 'every'");
            }
            return s;
        }
    }

    private static long millis(String entry, String text) {
        Matcher d = DURATION.matcher(text);
        if (!d.matches()) {
            throw new IllegalArgumentException("'" + entry + "': '" + text + "' is not a time (e.g. 500ms, 5s, 1m)");
        }
        double v = Double.parseDouble(d.group(1));
        return Math.round(switch (d.group(2)) {
            case "ms" -> v;
            case "s" -> v * 1000;
            default -> v * 60_000;
        });
    }
}
