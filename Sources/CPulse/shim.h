// Brings libpulse's asynchronous API (Debian: libpulse-dev) into Swift: the threaded main loop, the context, its
// introspection and subscription calls, and the volume helpers.
#include <pulse/pulseaudio.h>
#include <pulse/thread-mainloop.h>
