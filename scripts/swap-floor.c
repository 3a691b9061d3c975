// The daemon's once-a-second wake-up at N per-second clocks, in C with nothing else: what `widgetd-bench --only swap-N`
// would measure if the daemon's own code cost nothing (docs/PERFORMANCE.md, "Swap cost").
//
// Each second: re-arm a CLOCK_REALTIME timerfd for the next whole second, poll() over it and the four other
// descriptors the daemon sleeps on (an eventfd, a FIFO, an inotify watch and a signalfd), read the timerfd, lstat the
// output directory, then for every file the spare rewrite (openat, F_SETLEASE F_WRLCK, ftruncate, write 9 bytes,
// F_SETLEASE F_UNLCK, close, renameat2 RENAME_EXCHANGE), then sched_yield: the system calls the daemon makes, in its
// order (strace -f of the release daemon).
//
//   cc -O2 -o /tmp/swap-floor scripts/swap-floor.c
//   /tmp/swap-floor /dev/shm/floor 10 &      # then read its CPU from /proc/PID/task/*/schedstat over a window
//
// This is an older pattern than the daemon's today, which holds the files it rewrites often open with their spares
// and neither re-arms the timer each second nor yields after its bar files; `widgetd-bench`'s swap-10 row measures
// today's floor itself, beside the daemon (`SwapFloorBench`). This program is kept to try a change of the per-file
// calls in C before making it in the daemon.
//
// A third argument picks a variant, to measure a change of the per-file calls before making it in the daemon:
//   1 (default) the daemon's calls; 0 without the F_UNLCK (the close gives the lease up);
//   2 the visible file rewritten in place under a write lease, no spare and no rename (openat, F_SETLEASE, ftruncate,
//     write, close): NOT what the daemon does (see the page);
//   3 the daemon's calls, sleeping in epoll_wait on the five descriptors (registered once) instead of poll (no
//     difference from variant 1: docs/PERFORMANCE.md, "What remains").
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/fs.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s DIRECTORY N [VARIANT]\n", argv[0]);
        return 2;
    }
    const char *directory = argv[1];
    int count = atoi(argv[2]);
    int variant = argc > 3 ? atoi(argv[3]) : 1;
    signal(SIGIO, SIG_IGN);  // a lease's holder is sent SIGIO when an open() waits for it, as in the daemon

    char output[4096], fifo[4096];
    snprintf(output, sizeof output, "%s/out", directory);
    snprintf(fifo, sizeof fifo, "%s/control", directory);
    mkdir(directory, 0700);
    mkdir(output, 0700);
    mkfifo(fifo, 0600);
    int control = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    int held = open(output, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int timer = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);
    int wakeup = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    int watcher = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    inotify_add_watch(watcher, output, IN_DELETE);
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGHUP);
    sigprocmask(SIG_BLOCK, &mask, NULL);
    int signals = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
    if (control < 0 || held < 0 || timer < 0 || wakeup < 0 || watcher < 0 || signals < 0) {
        perror("setting up");
        return 1;
    }

    char (*names)[64] = malloc(count * sizeof *names), (*spares)[64] = malloc(count * sizeof *spares);
    for (int i = 0; i < count; i++) {
        snprintf(names[i], sizeof names[i], "c%d.plain", i);
        snprintf(spares[i], sizeof spares[i], ".c%d.plain.%d", i, (int)getpid());
        for (int k = 0; k < 2; k++) {
            int file = openat(held, k ? spares[i] : names[i], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
            if (file < 0 || write(file, "00:00:00\n", 9) != 9) {
                perror("creating the files");
                return 1;
            }
            close(file);
        }
    }

    int epoll = epoll_create1(EPOLL_CLOEXEC);
    int sleptOn[5] = {timer, wakeup, control, watcher, signals};
    for (int i = 0; variant == 3 && i < 5; i++) {
        struct epoll_event event = {.events = EPOLLIN, .data.fd = sleptOn[i]};
        epoll_ctl(epoll, EPOLL_CTL_ADD, sleptOn[i], &event);
    }

    for (;;) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        struct itimerspec next = {.it_value = {.tv_sec = now.tv_sec + 1}};
        timerfd_settime(timer, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &next, NULL);
        struct pollfd descriptors[5] = {
            {timer, POLLIN, 0}, {wakeup, POLLIN, 0}, {control, POLLIN, 0}, {watcher, POLLIN, 0}, {signals, POLLIN, 0},
        };
        if (variant == 3) {
            struct epoll_event ready[5];
            epoll_wait(epoll, ready, 5, -1);
        } else {
            poll(descriptors, 5, -1);
        }
        uint64_t expirations;
        if (read(timer, &expirations, sizeof expirations) < 0) continue;
        struct stat status;
        lstat(output, &status);
        char text[16];
        struct tm local;
        time_t second = now.tv_sec + 1;
        localtime_r(&second, &local);
        strftime(text, sizeof text, "%T\n", &local);
        for (int i = 0; i < count; i++) {
            if (variant == 2) {
                int file = openat(held, names[i], O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
                fcntl(file, F_SETLEASE, F_WRLCK);
                ftruncate(file, 0);
                write(file, text, 9);
                close(file);
                continue;
            }
            int file = openat(held, spares[i], O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
            fcntl(file, F_SETLEASE, F_WRLCK);
            ftruncate(file, 0);
            write(file, text, 9);
            if (variant == 1 || variant == 3) fcntl(file, F_SETLEASE, F_UNLCK);
            close(file);
            renameat2(held, spares[i], held, names[i], RENAME_EXCHANGE);
        }
        sched_yield();
    }
}
