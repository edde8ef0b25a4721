package dev.sluice.jmh.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/** The hottest methods of a JFR recording: top frames of its execution samples, as shares of all samples. */
final class JfrTop {

    private JfrTop() {
    }

    /** Lines "share  method" for the {@code n} methods most often on top of the stack. */
    static List<String> topFrames(Path recording, int n) throws IOException {
        Map<String, Integer> counts = new HashMap<>();
        int total = 0;
        for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
            if (!"jdk.ExecutionSample".equals(event.getEventType().getName())) {
                continue;
            }
            RecordedStackTrace stack = event.getStackTrace();
            if (stack == null || stack.getFrames().isEmpty()) {
                continue;
            }
            RecordedFrame top = stack.getFrames().get(0);
            String name = top.getMethod().getType().getName() + "." + top.getMethod().getName();
            counts.merge(name, 1, Integer::sum);
            total++;
        }
        int all = Math.max(1, total);
        return counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(n)
                .map(e -> String.format(java.util.Locale.ROOT, "%5.1f%%  %s", 100.0 * e.getValue() / all, e.getKey()))
                .collect(Collectors.toList());
    }
}
