// Brings the Linux descriptor APIs that Swift's Glibc module leaves out (timerfd, signalfd, eventfd) into
// Swift, plus inotify so one module covers the daemon's event sources. Everything here is in glibc itself:
// no library to link.
#ifndef WIDGETD_CLINUX_SHIM_H
#define WIDGETD_CLINUX_SHIM_H

#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>

#endif
