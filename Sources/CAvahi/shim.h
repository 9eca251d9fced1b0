// Avahi's client library from Debian's libavahi-client-dev: mDNS/DNS-SD
// through the system's avahi-daemon (over D-Bus), with a poll loop on a
// thread of its own.
#include <avahi-client/client.h>
#include <avahi-client/lookup.h>
#include <avahi-client/publish.h>
#include <avahi-common/address.h>
#include <avahi-common/alternative.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/strlst.h>
#include <avahi-common/thread-watch.h>
#include <avahi-common/timeval.h>
