package io.lockchaos.report;

import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import io.lockchaos.store.RunDir;
import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The run's plots, each written as PNG and SVG: acquire latency over time ({@code latency}), its quantiles per time
 * bucket ({@code latency-quantiles}) and completed client ops per second by outcome ({@code rate}). Fault periods are
 * shaded. Times on the x axis are seconds of the history's clock.
 */
public final class Plots {
    /** Raw latency points drawn at most; beyond this every k-th point is drawn and the title says so. */
    static final int MAX_POINTS = 5_000; // a 1000-pixel-wide chart shows no more; 20,000 cost 1M-op reports 0.5 s
    /** Time buckets the quantile and rate plots aim for. */
    static final int BUCKETS = 100;
    private static final Color[] OUTCOME_COLOURS = {new Color(0x4a90d9), new Color(0xe69f00), new Color(0x8e44ad)};
    private static final String[] OUTCOMES = {"ok", "fail", "info"};
    private static final Color FAULT = new Color(255, 140, 0, 45);

    static {
        // Plots are drawn on servers and in CI: never try to open a display.
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private Plots() {
    }

    /** Writes latency, latency-quantiles and rate as .png and .svg into {@code dir}; returns the files written. */
    public static List<Path> write(Path dir, History h, List<FaultPeriods.Period> faults) throws IOException {
        List<long[]> acquires = acquires(h);
        long width = TimeBuckets.width(h.endTime(), BUCKETS);
        List<Path> out = new ArrayList<>();
        save(dir, RunDir.LATENCY_PLOT, latency(acquires, faults), out);
        save(dir, RunDir.QUANTILES_PLOT, quantiles(acquires, faults, width), out);
        save(dir, RunDir.RATE_PLOT, rate(h, faults, width), out);
        return out;
    }

    /** Completed acquires as (invocation time, latency, outcome code). An acquire in flight at the end has none. */
    static List<long[]> acquires(History h) {
        List<long[]> rows = new ArrayList<>();
        for (int i = 0; i < h.size(); i++) {
            Op op = h.get(i);
            int c = h.completionOf(i);
            if (op.f() == Fn.ACQUIRE && c >= 0) {
                OpType t = h.get(c).type();
                rows.add(new long[] {op.time(), h.get(c).time() - op.time(), t == OpType.OK ? 0 : t == OpType.FAIL ? 1 : 2});
            }
        }
        return rows;
    }

    static XYChart latency(List<long[]> acquires, List<FaultPeriods.Period> faults) {
        int stride = Math.max(1, (acquires.size() + MAX_POINTS - 1) / MAX_POINTS);
        XYChart chart = chart("Acquire latency by outcome" + (stride > 1 ? String.format(Locale.ROOT,
                " (1 in %d of %,d acquires drawn)", stride, acquires.size()) : ""), "latency (ms)");
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        chart.getStyler().setMarkerSize(4);
        double top = 0;
        List<List<double[]>> byOutcome = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (int i = 0; i < acquires.size(); i += stride) {
            long[] a = acquires.get(i);
            byOutcome.get((int) a[2]).add(new double[] {a[0] / 1e9, a[1] / 1e6});
            top = Math.max(top, a[1] / 1e6);
        }
        shade(chart, faults, top);
        for (int o = 0; o < 3; o++) {
            List<double[]> pts = byOutcome.get(o);
            if (!pts.isEmpty()) {
                XYSeries s = chart.addSeries(OUTCOMES[o], column(pts, 0), column(pts, 1));
                s.setMarker(SeriesMarkers.CIRCLE);
                s.setMarkerColor(OUTCOME_COLOURS[o]);
            }
        }
        return placeholder(chart, "no completed acquires");
    }

    static XYChart quantiles(List<long[]> acquires, List<FaultPeriods.Period> faults, long width) {
        XYChart chart = chart("Latency of granted acquires per " + duration(width) + " bucket", "latency (ms)");
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        List<long[]> ok = acquires.stream().filter(a -> a[2] == 0).toList();
        long[] times = ok.stream().mapToLong(a -> a[0]).toArray();
        long[] values = ok.stream().mapToLong(a -> a[1]).toArray();
        List<TimeBuckets.Quantiles> q = TimeBuckets.quantiles(times, values, width);
        shade(chart, faults, q.stream().mapToLong(TimeBuckets.Quantiles::max).max().orElse(0) / 1e6);
        if (!q.isEmpty()) {
            double[] x = q.stream().mapToDouble(b -> (b.start() + width / 2.0) / 1e9).toArray();
            line(chart, "p50", x, q.stream().mapToDouble(b -> b.p50() / 1e6).toArray(), new Color(0x2e8b57));
            line(chart, "p95", x, q.stream().mapToDouble(b -> b.p95() / 1e6).toArray(), new Color(0x4a90d9));
            line(chart, "p99", x, q.stream().mapToDouble(b -> b.p99() / 1e6).toArray(), new Color(0x8e44ad));
            line(chart, "max", x, q.stream().mapToDouble(b -> b.max() / 1e6).toArray(), new Color(0xc0392b));
        }
        return placeholder(chart, "no granted acquires");
    }

    static XYChart rate(History h, List<FaultPeriods.Period> faults, long width) {
        XYChart chart = chart("Completed client ops per second, per " + duration(width) + " bucket", "ops/s");
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        // counted straight into buckets: a list of a million boxed times cost more than drawing the chart
        long[][] countsBy = new long[3][TimeBuckets.bucket(Math.max(h.endTime(), 0), width) + 1];
        boolean[] any = new boolean[3];
        for (Op op : h.ops()) {
            if (!op.isNemesis() && op.f() != Fn.STATE && op.type() != OpType.INVOKE) {
                int o = op.type() == OpType.OK ? 0 : op.type() == OpType.FAIL ? 1 : 2;
                any[o] = true;
                int bucket = TimeBuckets.bucket(op.time(), width);
                if (bucket >= 0 && bucket < countsBy[o].length) {
                    countsBy[o][bucket]++;
                }
            }
        }
        double perSecond = 1e9 / width;
        double[][] ys = new double[3][];
        double top = 0;
        for (int o = 0; o < 3; o++) {
            long[] counts = countsBy[o];
            ys[o] = new double[counts.length];
            for (int b = 0; b < counts.length; b++) {
                ys[o][b] = counts[b] * perSecond;
                top = Math.max(top, ys[o][b]);
            }
        }
        shade(chart, faults, top);
        double[] x = new double[ys[0].length];
        for (int b = 0; b < x.length; b++) {
            x[b] = (b * width + width / 2.0) / 1e9;
        }
        for (int o = 0; o < 3; o++) {
            if (any[o]) {
                line(chart, OUTCOMES[o], x, ys[o], OUTCOME_COLOURS[o]);
            }
        }
        return placeholder(chart, "no completed client ops");
    }

    private static XYChart chart(String title, String yTitle) {
        XYChart chart = new XYChartBuilder().width(1000).height(480).title(title).xAxisTitle("time (s)")
                .yAxisTitle(yTitle).build();
        Styler s = chart.getStyler();
        s.setLegendPosition(Styler.LegendPosition.OutsideE);
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        s.setAntiAlias(true);
        chart.getStyler().setYAxisMin(0.0);
        return chart;
    }

    /** The periods' union as disjoint [start, end] intervals in time order. */
    static List<long[]> union(List<FaultPeriods.Period> faults) {
        List<FaultPeriods.Period> sorted = new ArrayList<>(faults);
        sorted.sort(java.util.Comparator.comparingLong(FaultPeriods.Period::start));
        List<long[]> out = new ArrayList<>();
        for (FaultPeriods.Period p : sorted) {
            long[] last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null && p.start() <= last[1]) {
                last[1] = Math.max(last[1], p.end());
            } else {
                out.add(new long[] {p.start(), p.end()});
            }
        }
        return out;
    }

    /** Fault periods as one area series of rectangles from 0 to {@code top}. */
    private static void shade(XYChart chart, List<FaultPeriods.Period> faults, double top) {
        if (faults.isEmpty()) {
            return;
        }
        double y = top > 0 ? top * 1.05 : 1;
        List<double[]> pts = new ArrayList<>();
        // an area series needs ascending x: draw the union of the periods, which may overlap
        for (long[] u : union(faults)) {
            pts.add(new double[] {u[0] / 1e9, 0});
            pts.add(new double[] {u[0] / 1e9, y});
            pts.add(new double[] {u[1] / 1e9, y});
            pts.add(new double[] {u[1] / 1e9, 0});
        }
        XYSeries s = chart.addSeries("fault periods", column(pts, 0), column(pts, 1));
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Area);
        s.setFillColor(FAULT);
        s.setLineColor(new Color(230, 120, 0, 120));
        s.setMarker(SeriesMarkers.NONE);
    }

    private static void line(XYChart chart, String name, double[] x, double[] y, Color c) {
        XYSeries s = chart.addSeries(name, x, y);
        s.setLineColor(c);
        s.setMarkerColor(c);
        s.setMarker(SeriesMarkers.CIRCLE);
    }

    /** XChart cannot draw a chart without series; an empty history still gets a chart that says why it is empty. */
    private static XYChart placeholder(XYChart chart, String why) {
        if (chart.getSeriesMap().isEmpty()) {
            XYSeries s = chart.addSeries(why, new double[] {0}, new double[] {0});
            s.setMarker(SeriesMarkers.NONE);
        }
        return chart;
    }

    private static double[] column(List<double[]> pts, int i) {
        double[] out = new double[pts.size()];
        for (int k = 0; k < out.length; k++) {
            out[k] = pts.get(k)[i];
        }
        return out;
    }

    static String duration(long ns) {
        if (ns >= 1_000_000_000L) {
            return ns / 1_000_000_000L + " s";
        }
        return ns >= 1_000_000 ? ns / 1_000_000 + " ms" : ns / 1_000 + " \u00b5s";
    }

    private static void save(Path dir, String name, XYChart chart, List<Path> written) throws IOException {
        Path png = dir.resolve(name + ".png");
        try (OutputStream o = Files.newOutputStream(png)) {
            BitmapEncoder.saveBitmap(chart, o, BitmapEncoder.BitmapFormat.PNG);
        }
        Path svg = dir.resolve(name + ".svg");
        try (OutputStream o = Files.newOutputStream(svg)) {
            VectorGraphicsEncoder.saveVectorGraphic(chart, o, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        }
        written.add(png);
        written.add(svg);
    }
}
