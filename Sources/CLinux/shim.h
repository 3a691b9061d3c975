// Brings the Linux descriptor APIs that Swift's Glibc module leaves out (timerfd, signalfd, eventfd) into
// Swift, plus inotify so one module covers the daemon's event sources, posix_spawn's closefrom, and mallopt
// (malloc.h). Everything here is in glibc itself: no library to link.
#ifndef WIDGETD_CLINUX_SHIM_H
#define WIDGETD_CLINUX_SHIM_H

#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/ioctl.h>
#include <fcntl.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <spawn.h>
#include <malloc.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

// glibc 2.34 added posix_spawn_file_actions_addclosefrom_np, but declares it only for _DEFAULT_SOURCE builds,
// which Swift's Glibc import is not: declared here, for children that must not inherit the daemon's descriptors.
static inline int widgetd_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *, int);
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

// prctl is variadic, which Swift does not import: PR_SET_CHILD_SUBREAPER (Linux 3.4) makes this process the parent
// of its orphaned descendants, so a command's `setsid` grandchild cannot slip away to init.
static inline int widgetd_become_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

// pidfd_open(2) has no glibc wrapper before 2.36, and syscall(2) and prctl(2) are variadic, which Swift cannot
// call: wrapped here for followers that must notice their parent bar exit (System/ReaderLifetime.swift).
static inline int widgetd_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    return (int)syscall(434, pid, 0);
#endif
}

// accept4(2) is declared only for _GNU_SOURCE builds: the daemon's accepted sockets must be close-on-exec from the
// start, since provider threads spawn commands at any moment.
static inline int widgetd_accept_nonblocking(int listener) {
    extern int accept4(int, struct sockaddr *, socklen_t *, int);
    return accept4(listener, 0, 0, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

// Both are Linux's, declared only for _GNU_SOURCE builds (fcntl.h, sys/socket.h).
#ifndef F_GETPIPE_SZ
#define F_GETPIPE_SZ 1032
#endif
#ifndef MSG_CMSG_CLOEXEC
#define MSG_CMSG_CLOEXEC 0x40000000
#endif

// SCM_RIGHTS needs the CMSG_* macros, which Swift does not import: a bar hands the daemon its standard output (i3bar's
// pipe) with one message, so the daemon writes the bar's lines itself.
static inline ssize_t widgetd_send_with_descriptor(int socket, const void *bytes, size_t count, int descriptor) {
    struct iovec part = { (void *)bytes, count };
    union { char space[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = { 0 };
    message.msg_iov = &part;
    message.msg_iovlen = 1;
    message.msg_control = control.space;
    message.msg_controllen = sizeof control.space;
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &descriptor, sizeof(int));
    return sendmsg(socket, &message, MSG_DONTWAIT | MSG_NOSIGNAL);
}

// Receives one message and the descriptor passed with it, if any (*descriptor -1 when none), close-on-exec. MSG_TRUNC
// returns a cut message's whole length, as recv does.
static inline ssize_t widgetd_receive_with_descriptor(int socket, void *bytes, size_t count, int *descriptor) {
    struct iovec part = { bytes, count };
    union { char space[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
    struct msghdr message = { 0 };
    message.msg_iov = &part;
    message.msg_iovlen = 1;
    message.msg_control = control.space;
    message.msg_controllen = sizeof control.space;
    *descriptor = -1;
    ssize_t length = recvmsg(socket, &message, MSG_DONTWAIT | MSG_TRUNC | MSG_CMSG_CLOEXEC);
    if (length < 0) return length;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_RIGHTS
            && header->cmsg_len >= CMSG_LEN(sizeof(int))) {
            int passed[4];
            size_t number = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            if (number > 4) number = 4;
            memcpy(passed, CMSG_DATA(header), number * sizeof(int));
            for (size_t index = 0; index < number; index++) {
                if (*descriptor < 0) *descriptor = passed[index]; else close(passed[index]);
            }
        }
    }
    return length;
}

// The bytes waiting in a pipe, and its capacity: whether a line fits without a partial write.
static inline int widgetd_pipe_room(int pipe) {
    int queued = 0;
    if (ioctl(pipe, FIONREAD, &queued) < 0) return -1;
    int capacity = fcntl(pipe, F_GETPIPE_SZ);
    if (capacity < 0) return -1;
    return capacity - queued;
}

static inline int widgetd_parent_death_signal(int signal) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0, 0, 0);
}

// The calling thread's name, as `ps -L` and `top -H` show it (PR_SET_NAME keeps 15 bytes): prctl is variadic, and
// glibc declares pthread_setname_np only for _GNU_SOURCE builds.
static inline int widgetd_name_this_thread(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

// renameat2(2) and fcntl(F_SETLEASE) are declared only for _GNU_SOURCE builds: wrapped here for the output files'
// spare inodes (System/SpareFileCalls.swift). RENAME_EXCHANGE (Linux 3.15; tmpfs since 3.17) swaps two names in one
// step; a write lease (F_WRLCK) is granted only while no other descriptor has the file open, and an open() by anyone
// else waits until the lease is given up (F_UNLCK, or closing the last descriptor of the open file).
#include <fcntl.h>
static inline int widgetd_rename_exchange(int directory, const char *first, const char *second) {
    return (int)syscall(SYS_renameat2, directory, first, directory, second, 2 /* RENAME_EXCHANGE */);
}
static inline int widgetd_take_write_lease(int descriptor) {
    return fcntl(descriptor, 1024 /* F_SETLEASE */, F_WRLCK);
}
static inline int widgetd_release_lease(int descriptor) {
    return fcntl(descriptor, 1024 /* F_SETLEASE */, F_UNLCK);
}
// fallocate(2) is declared only for _GNU_SOURCE builds: a spare emptied after its exchange is given the pages of its
// next contents beyond its end (FALLOC_FL_KEEP_SIZE: its size stays 0), so that the write on a reload's way to the
// bar finds them there instead of allocating them (Output/HeldSpares.swift).
static inline int widgetd_reserve_space(int descriptor, long long length) {
    return (int)syscall(SYS_fallocate, descriptor, 0x01 /* FALLOC_FL_KEEP_SIZE */, (off_t)0, (off_t)length);
}

// O_TMPFILE (Linux 3.11) and AT_EMPTY_PATH are declared only for _GNU_SOURCE builds: wrapped here for an output
// file's first write (System/UnnamedFileCalls.swift), which makes the file unnamed in its directory, writes it, and
// only then gives it its name with linkat(2), so no reader can open it half-written. glibc's __O_TMPFILE carries
// the architecture's O_DIRECTORY bit, which a kernel without O_TMPFILE reads as a directory open (EISDIR).
static inline int widgetd_open_unnamed(int directory, mode_t mode) {
    return openat(directory, ".", __O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
}
// linkat(AT_EMPTY_PATH) links the open file itself; before Linux 6.10 only with CAP_DAC_READ_SEARCH (ENOENT
// otherwise).
static inline int widgetd_link_open_file(int descriptor, int directory, const char *name) {
    return linkat(descriptor, "", directory, name, 0x1000 /* AT_EMPTY_PATH */);
}

// madvise(MADV_DONTNEED) over `count` regions given as start and end addresses in turn, for WorkingSet.trim: a C loop,
// so that nothing between the first unmapping and the last runs code that has to be faulted in again. Returns how many
// succeeded.
#include <sys/mman.h>
static inline size_t widgetd_unmap_regions(const unsigned long *bounds, size_t count) {
    size_t done = 0;
    for (size_t i = 0; i < count; i++) {
        if (madvise((void *)bounds[2 * i], bounds[2 * i + 1] - bounds[2 * i], MADV_DONTNEED) == 0) done++;
    }
    return done;
}

#endif
