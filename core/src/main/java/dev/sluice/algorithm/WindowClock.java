package dev.sluice.algorithm;

/**
 * Window arithmetic on the limiter's elapsed time. Windows are aligned to multiples of {@code W} on the clock: the
 * limiter shifts its elapsed time by the clock's phase (see {@code TimeLine}), so index {@code k} is
 * {@code [k*W, (k+1)*W)} after that shift.
 */
final class WindowClock {

    private final long window;

    WindowClock(long window) {
        this.window = window;
    }

    long index(long t) {
        return t / window;
    }

    /**
     * The later of a key's stored window and the window of {@code t}: {@code max(stored, index(t))}, without the
     * division while {@code t} falls before the stored window's end, as almost every request on a busy key does.
     */
    long latest(long stored, long t) {
        return t < end(stored) ? stored : index(t);
    }

    long start(long index) {
        return index * window;
    }

    long end(long index) {
        return (index + 1) * window;
    }

    long window() {
        return window;
    }
}
