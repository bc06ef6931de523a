/*
 * lockchaos clock shift: an LD_PRELOAD library that adds an offset to the wall clock of one server (a Redis
 * instance; a PostgreSQL server and the backends it forks, which share the mapping), so the nemesis can jump that
 * server's clock while it runs. libfaketime does this in general, but it hangs at start under Redis: jemalloc reads the clock while libfaketime initialises (libfaketime issues 130, 327).
 * This library calls no allocator and no dlsym: the clock is read with raw system calls, and the offset (signed
 * 64-bit nanoseconds, native byte order) from a file mapped once at load, which the runner rewrites at run time.
 * Only CLOCK_REALTIME and its coarse variant, gettimeofday and time move; monotonic clocks stay true.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static volatile int64_t *offset_ns;

__attribute__((constructor)) static void lockchaos_clockshift_init(void) {
    const char *path = getenv("LOCKCHAOS_CLOCK_FILE");
    if (path == NULL) {
        return;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return;
    }
    void *p = mmap(NULL, sizeof(int64_t), PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (p != MAP_FAILED) {
        offset_ns = (volatile int64_t *) p;
    }
}

static int64_t shift(void) {
    return offset_ns == NULL ? 0 : __atomic_load_n(offset_ns, __ATOMIC_RELAXED);
}

static void add(struct timespec *ts, int64_t ns) {
    int64_t total = (int64_t) ts->tv_nsec + ns % 1000000000LL;
    ts->tv_sec += ns / 1000000000LL + total / 1000000000LL;
    total %= 1000000000LL;
    if (total < 0) {
        total += 1000000000LL;
        ts->tv_sec -= 1;
    }
    ts->tv_nsec = total;
}

int clock_gettime(clockid_t clock, struct timespec *ts) {
    int r = (int) syscall(SYS_clock_gettime, clock, ts);
    if (r == 0 && (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE)) {
        add(ts, shift());
    }
    return r;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
    struct timespec ts;
    int r = (int) syscall(SYS_clock_gettime, CLOCK_REALTIME, &ts);
    if (r != 0) {
        return r;
    }
    add(&ts, shift());
    if (tv != NULL) {
        tv->tv_sec = ts.tv_sec;
        tv->tv_usec = ts.tv_nsec / 1000;
    }
    if (tz != NULL) {
        ((struct timezone *) tz)->tz_minuteswest = 0;
        ((struct timezone *) tz)->tz_dsttime = 0;
    }
    return 0;
}

time_t time(time_t *t) {
    struct timespec ts;
    if (syscall(SYS_clock_gettime, CLOCK_REALTIME, &ts) != 0) {
        return (time_t) -1;
    }
    add(&ts, shift());
    if (t != NULL) {
        *t = ts.tv_sec;
    }
    return ts.tv_sec;
}
