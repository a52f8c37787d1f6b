/*
 * nzmq_native.c - NetZeroMQ's native libzmq throughput reference.
 *
 * Plain C against the system libzmq, used by the .NET benchmark tool as the
 * denominator of "NetZeroMQ throughput / native libzmq throughput". The .NET
 * side mirrors this method exactly (see README.md in this folder):
 *   - one process, one zmq context, two threads (receiver + sender), each
 *     creating, using and closing its own socket;
 *   - the receiver binds and publishes ZMQ_LAST_ENDPOINT, the sender connects;
 *   - every socket: ZMQ_LINGER=0, ZMQ_SNDTIMEO=ZMQ_RCVTIMEO=--timeout-ms;
 *   - warm-up: the sender sends zero-length messages (about one per ms) until
 *     the receiver has received one; timed messages are never empty;
 *   - clock: from the sender's first timed send to the receiver's last timed
 *     receive (CLOCK_MONOTONIC, same process);
 *   - the receiver checks count * size payload bytes arrived; the sender keeps
 *     its socket open until the receiver is done (LINGER=0 would drop queued
 *     messages on close).
 * Draft patterns (clientserver, radiodish) and --poll-probe use libzmq's draft
 * API, bound with dlsym at run time so that this program builds and runs
 * against a libzmq without it (Debian's); there they exit with code 4.
 * Exit codes: 0 ok, 1 usage, 2 libzmq/system setup error, 3 run failed,
 * 4 not run: the loaded libzmq has no draft API.
 */
#define _GNU_SOURCE
#include <zmq.h>

#include <dlfcn.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum pattern { PUSHPULL, PUBSUB, ROUTERROUTER, PAIR, DEALERROUTER, REQREP,
               DEALERDEALER, ROUTERROUTERPOLLER, CLIENTSERVER, RADIODISH };
enum transport { INPROC, IPC, TCP };
enum mode { BLOCKING, NONBLOCKING, POLLER };
enum api { API_MSG, API_BUF, API_ZC };

static const char *const pattern_names[] = {"pushpull", "pubsub", "routerrouter",
                                            "pair", "dealerrouter", "reqrep",
                                            "dealerdealer", "routerrouterpoller",
                                            "clientserver", "radiodish"};
static const char *const transport_names[] = {"inproc", "ipc", "tcp"};
static const char *const mode_names[] = {"blocking", "nonblocking", "poller"};
static const char *const api_names[] = {"msg", "buf", "zc"};

#define COUNT_OF(a) ((int) (sizeof (a) / sizeof (a)[0]))
#define EXIT_USAGE 1
#define EXIT_SETUP 2
#define EXIT_RUN 3
#define EXIT_NO_DRAFT 4

/* Draft socket types: zmq.h defines them only with ZMQ_BUILD_DRAFT_API. */
#ifndef ZMQ_SERVER
#define ZMQ_SERVER 12
#define ZMQ_CLIENT 13
#define ZMQ_RADIO 14
#define ZMQ_DISH 15
#endif
#ifndef ZMQ_XPUB_NODROP
#define ZMQ_XPUB_NODROP 69
#endif

/* The RADIO's group; every message carries it: libzmq's RADIO sends a message
 * only to the peers that joined its group, so one without a group (group "")
 * reaches no DISH and is dropped without an error. */
#define RADIO_GROUP "g"

/* Draft functions, looked up at run time (NULL when the library lacks them). */
static struct {
    int (*join) (void *socket, const char *group);
    int (*msg_set_group) (zmq_msg_t *msg, const char *group);
    void *(*poller_new) (void);
    int (*poller_destroy) (void **poller);
    int (*poller_add) (void *poller, void *socket, void *user_data, short events);
    int (*poller_wait_all) (void *poller, void *events, int n_events, long timeout);
} draft;

/* zmq_poller_event_t, which zmq.h declares only with the draft API. */
struct poller_event {
    void *socket;
    int fd;
    void *user_data;
    short events;
};

static int draft_loaded (void)
{
    draft.join = (int (*) (void *, const char *)) dlsym (RTLD_DEFAULT, "zmq_join");
    draft.msg_set_group =
      (int (*) (zmq_msg_t *, const char *)) dlsym (RTLD_DEFAULT, "zmq_msg_set_group");
    draft.poller_new = (void *(*) (void)) dlsym (RTLD_DEFAULT, "zmq_poller_new");
    draft.poller_destroy = (int (*) (void **)) dlsym (RTLD_DEFAULT, "zmq_poller_destroy");
    draft.poller_add = (int (*) (void *, void *, void *, short)) dlsym (
      RTLD_DEFAULT, "zmq_poller_add");
    draft.poller_wait_all = (int (*) (void *, void *, int, long)) dlsym (
      RTLD_DEFAULT, "zmq_poller_wait_all");
    return zmq_has ("draft") && draft.join && draft.msg_set_group
           && draft.poller_new && draft.poller_destroy && draft.poller_add
           && draft.poller_wait_all;
}

/* Which file zmq_version came from: the proof of the libzmq actually loaded. */
static const char *libzmq_path (void)
{
    Dl_info info;
    return dladdr ((void *) zmq_version, &info) && info.dli_fname ? info.dli_fname : "?";
}

static void print_libzmq (void)
{
    int major, minor, patch;
    zmq_version (&major, &minor, &patch);
    printf ("libzmq=%d.%d.%d draft=%d libzmq_path=%s", major, minor, patch,
            draft_loaded (), libzmq_path ());
}

/* Exit 4 with the reason when a draft feature is asked of a library without it. */
static void require_draft (const char *what)
{
    if (draft_loaded ())
        return;
    fprintf (stderr, "nzmq_native: not run: %s needs the draft API and the loaded libzmq "
                     "(%s) has none (zmq_has(\"draft\") is %d)\n",
             what, libzmq_path (), zmq_has ("draft"));
    exit (EXIT_NO_DRAFT);
}

/* RADIO sends: the group every message carries, NULL for other patterns. */
static const char *send_group;

/* One-byte routing ids of the ROUTER patterns (sender "S", receiver "R"). */
static const char SENDER_ID[1] = {'S'};
static const char RECEIVER_ID[1] = {'R'};

struct options {
    enum pattern pattern;
    enum transport transport;
    enum mode mode;
    enum api api;
    size_t size;
    long long count;
    int hwm, timeout_ms; /* hwm -1: keep libzmq's default */
    long long warmup;      /* messages (round trips) per untimed batch, 0: none */
    double warmup_seconds; /* untimed batches go on at least this long */
    int roundtrip;         /* --roundtrip: ping-pong latency instead of throughput */
    int poll_probe, draft_check;
    long long sockets, iterations, batches; /* --poll-probe */
};

struct run {
    const struct options *opt;
    void *ctx;
    char bind_addr[128]; /* what the receiver binds to */
    char endpoint[256];  /* ZMQ_LAST_ENDPOINT, what the sender connects to */
    pthread_barrier_t bound; /* receiver has bound; sender may connect */
    pthread_barrier_t done;  /* receiver finished; sender may close */
    pthread_barrier_t batch; /* end of an untimed batch (both threads) */
    atomic_int more_warmup;  /* set by the sender before each batch barrier */
    long long warmup_batches;
    uint64_t *rtt;           /* --roundtrip: one duration (ns) per timed round trip */
    atomic_int warm;         /* receiver has seen a warm-up message */
    atomic_int failed;       /* first failure wins and fills `failure` */
    char failure[256];
    uint64_t t_first_send, t_last_recv, t_send_end; /* ns */
    long long received;
    unsigned long long bytes;
};

/* ipc: a private mkdtemp directory holds the socket file, so the path is
 * unique (libzmq unlinks an existing file on bind, so a merely "probably
 * unique" name could steal another run's socket). Removed on every exit. */
static char ipc_dir[64];
static char ipc_file[96];

static void cleanup_ipc (void)
{
    if (ipc_file[0] && unlink (ipc_file) != 0 && errno != ENOENT)
        fprintf (stderr, "nzmq_native: unlink %s: %s\n", ipc_file,
                 strerror (errno));
    if (ipc_dir[0] && rmdir (ipc_dir) != 0 && errno != ENOENT)
        fprintf (stderr, "nzmq_native: rmdir %s: %s\n", ipc_dir,
                 strerror (errno));
    ipc_file[0] = ipc_dir[0] = '\0';
}

/* A setup step failed (socket, option, bind, thread, memory): nothing was
 * measured yet and the other thread may wait in a barrier, so leave at once. */
static void setup_error (const char *what, const char *why)
{
    fprintf (stderr, "nzmq_native: %s: %s\n", what, why);
    cleanup_ipc ();
    _exit (EXIT_SETUP);
}

static void setup_failed (const char *what) /* a libzmq call failed */
{
    setup_error (what, zmq_strerror (zmq_errno ()));
}

/* The run itself failed; record the first reason and let both threads wind
 * down normally (main turns it into exit code 3). */
static void run_failed (struct run *r, const char *what, int err)
{
    int expected = 0;
    if (!atomic_compare_exchange_strong (&r->failed, &expected, 1))
        return;
    snprintf (r->failure, sizeof r->failure, "%s%s%s", what, err ? ": " : "",
              err ? zmq_strerror (err) : "");
}

static uint64_t now_ns (void)
{
    struct timespec ts;
    clock_gettime (CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static void sleep_us (long us)
{
    struct timespec ts = {0, us * 1000};
    while (nanosleep (&ts, &ts) != 0 && errno == EINTR)
        ;
}

static void barrier_wait (pthread_barrier_t *b)
{
    int rc = pthread_barrier_wait (b);
    if (rc != 0 && rc != PTHREAD_BARRIER_SERIAL_THREAD)
        setup_error ("pthread_barrier_wait", strerror (rc));
}

static void set_int_opt (void *s, int name, int value, const char *what)
{
    if (zmq_setsockopt (s, name, &value, sizeof value) != 0)
        setup_failed (what);
}

/* Create and configure one side's socket (not yet bound or connected). */
static void *open_socket (const struct run *r, int sender)
{
    static const int types[][2] = {
      /* sender,    receiver */
      [PUSHPULL] = {ZMQ_PUSH, ZMQ_PULL},
      [PUBSUB] = {ZMQ_PUB, ZMQ_SUB},
      [ROUTERROUTER] = {ZMQ_ROUTER, ZMQ_ROUTER},
      [PAIR] = {ZMQ_PAIR, ZMQ_PAIR},
      [DEALERROUTER] = {ZMQ_DEALER, ZMQ_ROUTER},
      [REQREP] = {ZMQ_REQ, ZMQ_REP},
      [DEALERDEALER] = {ZMQ_DEALER, ZMQ_DEALER},
      [ROUTERROUTERPOLLER] = {ZMQ_ROUTER, ZMQ_ROUTER},
      [CLIENTSERVER] = {ZMQ_CLIENT, ZMQ_SERVER},
      [RADIODISH] = {ZMQ_RADIO, ZMQ_DISH},
    };
    const struct options *o = r->opt;
    void *s = zmq_socket (r->ctx, types[o->pattern][sender ? 0 : 1]);
    if (!s)
        setup_failed ("zmq_socket");
    set_int_opt (s, ZMQ_LINGER, 0, "ZMQ_LINGER");
    /* Timeouts on both directions, so a stalled run ends instead of hanging.
     * (nonblocking/poller receives enforce the same limit themselves.) */
    set_int_opt (s, ZMQ_SNDTIMEO, o->timeout_ms, "ZMQ_SNDTIMEO");
    set_int_opt (s, ZMQ_RCVTIMEO, o->timeout_ms, "ZMQ_RCVTIMEO");
    if (o->hwm >= 0)
        set_int_opt (s, sender ? ZMQ_SNDHWM : ZMQ_RCVHWM, o->hwm,
                     sender ? "ZMQ_SNDHWM" : "ZMQ_RCVHWM");

    switch (o->pattern) {
        case PUBSUB:
            if (sender) /* block at the HWM like PUSH instead of dropping */
                set_int_opt (s, ZMQ_XPUB_NODROP, 1, "ZMQ_XPUB_NODROP");
            else if (zmq_setsockopt (s, ZMQ_SUBSCRIBE, "", 0) != 0)
                setup_failed ("ZMQ_SUBSCRIBE");
            break;
        case ROUTERROUTER:
        case ROUTERROUTERPOLLER:
            if (zmq_setsockopt (s, ZMQ_ROUTING_ID, sender ? SENDER_ID : RECEIVER_ID, 1))
                setup_failed ("ZMQ_ROUTING_ID");
            /* fail (EHOSTUNREACH) instead of silently dropping unroutable
             * messages; at the HWM a mandatory ROUTER blocks */
            if (sender)
                set_int_opt (s, ZMQ_ROUTER_MANDATORY, 1, "ZMQ_ROUTER_MANDATORY");
            break;
        case DEALERROUTER:
            /* fixed 1-byte id, so the receiver's id frame is predictable */
            if (sender && zmq_setsockopt (s, ZMQ_ROUTING_ID, SENDER_ID, 1) != 0)
                setup_failed ("ZMQ_ROUTING_ID");
            break;
        case RADIODISH:
            if (sender) /* like PUB: block at the HWM instead of dropping */
                set_int_opt (s, ZMQ_XPUB_NODROP, 1, "ZMQ_XPUB_NODROP");
            else if (draft.join (s, RADIO_GROUP) != 0)
                setup_failed ("zmq_join");
            break;
        default: break;
    }
    return s;
}

static void close_socket (void *s)
{
    if (zmq_close (s) != 0)
        setup_failed ("zmq_close");
}

/* ---- Sender ------------------------------------------------------------ */

/* Send one frame with the selected API; blocking (bounded by ZMQ_SNDTIMEO).
 * Returns 0, or -1 with zmq_errno() set. */
static inline int send_frame (void *s, enum api api, const void *data,
                              size_t len, int flags)
{
    for (;;) {
        int rc;
        if (api == API_BUF && !send_group) {
            rc = zmq_send (s, data, len, flags);
        } else {
            zmq_msg_t m;
            if (api != API_ZC) { /* msg, or buf on a RADIO (needs a message) */
                /* what a binding does with a byte array it does not own */
                if (zmq_msg_init_size (&m, len) != 0)
                    return -1;
                memcpy (zmq_msg_data (&m), data, len);
            } else if (zmq_msg_init_data (&m, (void *) data, len, NULL, NULL)
                       != 0) {
                /* zc: constant buffer, no free function: no alloc, no copy */
                return -1;
            }
            /* RADIO: a message without a group reaches no DISH */
            if (send_group && draft.msg_set_group (&m, send_group) != 0) {
                int err = zmq_errno ();
                zmq_msg_close (&m);
                errno = err;
                return -1;
            }
            rc = zmq_msg_send (&m, s, flags);
            if (rc < 0) { /* message not consumed: release it, keep errno */
                int err = zmq_errno ();
                if (zmq_msg_close (&m) != 0)
                    return -1;
                errno = err;
            }
        }
        if (rc >= 0)
            return 0;
        if (zmq_errno () != EINTR)
            return -1;
    }
}

/* Send zero-length messages, about one per millisecond, until the receiver
 * has got one: the connection (and for pubsub the subscription) is then up.
 * Returns 0 when warm, -1 on failure (recorded). */
static int warm_up (struct run *r, void *s, int routed)
{
    const uint64_t deadline = now_ns () + (uint64_t) r->opt->timeout_ms * 1000000u;
    while (!atomic_load (&r->warm)) {
        if (atomic_load (&r->failed))
            return -1;
        if (now_ns () > deadline) {
            run_failed (r, "warm-up: receiver got nothing within --timeout-ms", 0);
            return -1;
        }
        if (routed && send_frame (s, API_BUF, RECEIVER_ID, 1, ZMQ_SNDMORE) != 0) {
            /* ROUTER_MANDATORY: peer "R" not known until its handshake is
             * done; nothing was queued, so just try again */
            if (zmq_errno () == EHOSTUNREACH) {
                sleep_us (100);
                continue;
            }
            run_failed (r, "warm-up send (routing id)", zmq_errno ());
            return -1;
        }
        if (send_frame (s, API_BUF, "", 0, 0) != 0) {
            run_failed (r, "warm-up send", zmq_errno ());
            return -1;
        }
        for (int i = 0; i < 20 && !atomic_load (&r->warm); i++)
            sleep_us (50);
    }
    return 0;
}

/* Send `count` payload messages; stops at the first failure (recorded). */
static void send_batch (struct run *r, void *s, const char *payload,
                        int routed, long long count)
{
    /* hot-loop values in locals: libzmq calls are opaque to the compiler,
     * so fields behind `r->opt` would be reloaded on every message */
    const enum api api = r->opt->api;
    const size_t size = r->opt->size;
    if (atomic_load (&r->failed))
        return;
    for (long long i = 0; i < count; i++) {
        if (routed && send_frame (s, api, RECEIVER_ID, 1, ZMQ_SNDMORE) != 0) {
            run_failed (r, "send (routing id)", zmq_errno ());
            return;
        }
        if (send_frame (s, api, payload, size, 0) != 0) {
            run_failed (r, "send", zmq_errno ());
            return;
        }
    }
}

/* --warmup N --warmup-seconds S: untimed batches of N on the same sockets,
 * the same as the .NET side runs before its timed batch (where the JIT needs
 * them), until S seconds have passed (at least one batch). The sender decides
 * whether another batch follows and publishes it before the batch barrier;
 * both threads read it after the barrier, so they always agree. A failure
 * makes the remaining batches return at once. */
typedef void (*batch_fn) (struct run *, void *, const char *, int, long long);
static void untimed_batches (struct run *r, void *s, const char *payload,
                             int routed, batch_fn batch, int synced)
{
    const struct options *o = r->opt;
    if (o->warmup <= 0)
        return;
    const uint64_t start = now_ns ();
    do {
        batch (r, s, payload, routed, o->warmup);
        r->warmup_batches++;
        const double elapsed = (double) (now_ns () - start) / 1e9;
        atomic_store (&r->more_warmup,
                      elapsed < o->warmup_seconds && !atomic_load (&r->failed));
        if (synced)
            barrier_wait (&r->batch);
    } while (atomic_load (&r->more_warmup));
}

/* Each thread's side of the batch protocol that has no batch of its own
 * to time (the receiver of throughput runs, the echoing server). */
static void follow_batches (struct run *r, void (*each) (void *), void *arg)
{
    if (r->opt->warmup <= 0)
        return;
    do {
        each (arg);
        barrier_wait (&r->batch);
    } while (atomic_load (&r->more_warmup));
}

static int cmp_u64 (const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
    return x < y ? -1 : x > y;
}

/* One round trip: send the payload, receive the echo (buf API). */
static inline int round_trip (void *s, const char *payload, char *reply,
                              size_t size)
{
    if (send_frame (s, API_BUF, payload, size, 0) != 0)
        return -1;
    int rc;
    while ((rc = zmq_recv (s, reply, size, 0)) < 0 && zmq_errno () == EINTR)
        ;
    if (rc < 0)
        return -1;
    if ((size_t) rc != size) {
        errno = EPROTO;
        return -1;
    }
    return 0;
}

static void ping_batch (struct run *r, void *s, const char *payload,
                        int routed, long long count)
{
    (void) routed;
    const size_t size = r->opt->size;
    char *reply = malloc (size);
    if (!reply)
        setup_error ("malloc", strerror (ENOMEM));
    if (!atomic_load (&r->failed))
        for (long long i = 0; i < count; i++)
            if (round_trip (s, payload, reply, size) != 0) {
                run_failed (r, "round trip", zmq_errno ());
                break;
            }
    free (reply);
}

/* --roundtrip client (REQ or DEALER): untimed round trips as warm-up, then
 * --count timed ones, each timed alone; then an empty message that tells the
 * server to stop (it echoes that too). */
static void ping (struct run *r, void *s, const char *payload)
{
    const size_t size = r->opt->size;
    const long long count = r->opt->count;
    char *reply = malloc (size);
    if (!reply)
        setup_error ("malloc", strerror (ENOMEM));
    /* the server just echoes: no batch barrier */
    untimed_batches (r, s, payload, 0, ping_batch, 0);
    r->t_first_send = now_ns ();
    for (long long i = 0; i < count && !atomic_load (&r->failed); i++) {
        const uint64_t t = now_ns ();
        if (round_trip (s, payload, reply, size) != 0) {
            run_failed (r, "round trip", zmq_errno ());
            break;
        }
        r->rtt[i] = now_ns () - t;
        r->received++;
        r->bytes += size;
    }
    r->t_last_recv = r->t_send_end = now_ns ();
    /* stop the server even after a failure, unless the socket is unusable */
    if (send_frame (s, API_BUF, "", 0, 0) == 0)
        while (zmq_recv (s, reply, size, 0) < 0 && zmq_errno () == EINTR)
            ;
    free (reply);
}

static void *sender_main (void *arg)
{
    struct run *r = arg;
    const struct options *o = r->opt;
    const int routed = o->pattern == ROUTERROUTER || o->pattern == ROUTERROUTERPOLLER;

    void *s = open_socket (r, 1);
    barrier_wait (&r->bound);
    if (zmq_connect (s, r->endpoint) != 0)
        setup_failed ("zmq_connect");

    char *payload = malloc (o->size);
    if (!payload)
        setup_error ("malloc", strerror (ENOMEM));
    memset (payload, 0x5a, o->size);

    if (o->roundtrip)
        ping (r, s, payload);
    else {
        const int warm = warm_up (r, s, routed) == 0;
        /* even after a failed warm-up: the receiver waits at the batch
         * barrier (the batches return at once once a failure is recorded) */
        untimed_batches (r, s, payload, routed, send_batch, 1);
        if (warm) {
            r->t_first_send = now_ns ();
            send_batch (r, s, payload, routed, o->count);
            r->t_send_end = now_ns ();
        }
    }
    /* zc sends point into `payload`, and LINGER=0 would drop what is still
     * queued: keep both until the receiver is done. */
    barrier_wait (&r->done);
    close_socket (s);
    free (payload);
    return NULL;
}

/* ---- Receiver ---------------------------------------------------------- */

/* Everything the per-frame receive path reads, copied out of the options so
 * it costs one load from this struct (not a pointer chain) per frame. */
struct receiver {
    struct run *r;
    void *sock;
    enum mode mode;
    enum api api;
    int timeout_ms;
    zmq_msg_t msg; /* msg/zc: reused for every frame, payload never copied */
    char *buf;     /* buf: frames are copied in here */
};

/* One receive attempt with the selected API; flags 0 or ZMQ_DONTWAIT. */
static inline int recv_once (struct receiver *x, size_t cap, int flags)
{
    return x->api == API_BUF ? zmq_recv (x->sock, x->buf, cap, flags)
                             : zmq_msg_recv (&x->msg, x->sock, flags);
}

/* Slow path of recv_frame, out of line so the fast path stays small enough
 * to inline: the first attempt returned `rc` (an error, or a truncated buf
 * frame). Waits per --mode and retries. Returns the frame size, or -1 after
 * recording the failure; --timeout-ms without a frame fails in every mode. */
static __attribute__ ((noinline)) int recv_wait (struct receiver *x,
                                                 size_t cap, int rc)
{
    const int flags = x->mode == BLOCKING ? 0 : ZMQ_DONTWAIT;
    unsigned spins = 0;
    uint64_t idle_since = 0;
    for (;; rc = recv_once (x, cap, flags)) {
        if (rc >= 0) {
            if (x->api == API_BUF && (size_t) rc > cap) {
                run_failed (x->r, "recv: message truncated (larger than buffer)", 0);
                return -1;
            }
            return rc;
        }
        const int err = zmq_errno ();
        if (err == EINTR)
            continue;
        if (err != EAGAIN) {
            run_failed (x->r, "recv", err);
            return -1;
        }
        if (x->mode == BLOCKING) /* ZMQ_RCVTIMEO expired */
            goto timed_out;
        /* Non-blocking modes: look at the clock only every 1024 empty
         * attempts, so waiting stays a tight receive/yield loop. */
        if ((++spins & 1023) == 0) {
            const uint64_t t = now_ns ();
            if (!idle_since)
                idle_since = t;
            else if (t - idle_since > (uint64_t) x->timeout_ms * 1000000u)
                goto timed_out;
        }
        if (x->mode == NONBLOCKING) {
            /* not a pure spin: on 2 cores that would starve libzmq's I/O
             * thread; sched_yield gives the CPU away if anyone wants it */
            sched_yield ();
        } else {
            /* poller: drained to EAGAIN, now wait on this one socket */
            zmq_pollitem_t item = {x->sock, 0, ZMQ_POLLIN, 0};
            const int n = zmq_poll (&item, 1, x->timeout_ms);
            if (n == 0)
                goto timed_out;
            if (n < 0 && zmq_errno () != EINTR) {
                run_failed (x->r, "zmq_poll", zmq_errno ());
                return -1;
            }
        }
    }
timed_out:
    run_failed (x->r, "recv: nothing received for --timeout-ms", 0);
    return -1;
}

/* Receive one frame according to --mode / --api (see recv_wait). */
static inline int recv_frame (struct receiver *x, size_t cap)
{
    const int rc = recv_once (x, cap, x->mode == BLOCKING ? 0 : ZMQ_DONTWAIT);
    if (rc >= 0 && (x->api != API_BUF || (size_t) rc <= cap))
        return rc;
    return recv_wait (x, cap, rc);
}

/* routerrouterpoller: wait in zmq_poll on the socket before every message,
 * as an application that serves several sockets from one poller does.
 * Returns 0 when the socket is readable, -1 after recording the failure. */
static int poll_in (struct receiver *x)
{
    zmq_pollitem_t item = {x->sock, 0, ZMQ_POLLIN, 0};
    int n;
    while ((n = zmq_poll (&item, 1, x->timeout_ms)) < 0 && zmq_errno () == EINTR)
        ;
    if (n > 0)
        return 0;
    run_failed (x->r, n == 0 ? "zmq_poll: nothing received for --timeout-ms" : "zmq_poll",
                n == 0 ? 0 : zmq_errno ());
    return -1;
}

struct batch_arg {
    struct receiver *x;
    int routed;
    long long count, received;
    unsigned long long bytes;
};

/* Receive `count` payload messages; empty (warm-up) messages are skipped. */
static void receive_batch (struct batch_arg *b)
{
    struct receiver *x = b->x;
    struct run *r = x->r;
    const int routed = b->routed;
    const size_t size = r->opt->size;
    const long long count = b->count;
    const int polled = r->opt->pattern == ROUTERROUTERPOLLER;
    long long n = 0;
    unsigned long long bytes = 0;
    while (n < count && !atomic_load_explicit (&r->failed, memory_order_relaxed)) {
        if (polled && poll_in (x) != 0)
            break;
        /* ROUTER receives [sender id "S"][payload]; the id must be 1 byte */
        int idlen;
        if (routed && (idlen = recv_frame (x, 256)) != 1) {
            if (idlen >= 0)
                run_failed (r, "recv: unexpected routing-id frame", 0);
            break;
        }
        const int rc = recv_frame (x, size);
        if (rc < 0)
            break;
        if (rc == 0) { /* warm-up message: not counted */
            atomic_store_explicit (&r->warm, 1, memory_order_release);
            continue;
        }
        n++;
        bytes += (unsigned) rc;
    }
    b->received = n;
    b->bytes = bytes;
}

static void receive_batch_fn (void *arg)
{
    receive_batch (arg);
}

/* --roundtrip server (REP or ROUTER): echo every message until an empty one
 * (echoed too) says the client is done. */
static void echo (struct run *r, void *s, char *buf, int routed)
{
    const size_t size = r->opt->size;
    char id[256];
    for (;;) {
        int idlen = 0, rc;
        if (routed) {
            while ((idlen = zmq_recv (s, id, sizeof id, 0)) < 0 && zmq_errno () == EINTR)
                ;
            if (idlen < 0 || (size_t) idlen > sizeof id) {
                run_failed (r, "echo: recv (routing id)", idlen < 0 ? zmq_errno () : 0);
                return;
            }
        }
        while ((rc = zmq_recv (s, buf, size, 0)) < 0 && zmq_errno () == EINTR)
            ;
        if (rc < 0 || (size_t) rc > size) {
            run_failed (r, "echo: recv", rc < 0 ? zmq_errno () : 0);
            return;
        }
        if ((routed && send_frame (s, API_BUF, id, (size_t) idlen, ZMQ_SNDMORE) != 0)
            || send_frame (s, API_BUF, buf, (size_t) rc, 0) != 0) {
            run_failed (r, "echo: send", zmq_errno ());
            return;
        }
        if (rc == 0)
            return;
    }
}

static void *receiver_main (void *arg)
{
    struct run *r = arg;
    const struct options *o = r->opt;
    const int routed = o->pattern == ROUTERROUTER || o->pattern == DEALERROUTER
                       || o->pattern == ROUTERROUTERPOLLER;

    void *s = open_socket (r, 0);
    if (zmq_bind (s, r->bind_addr) != 0)
        setup_failed ("zmq_bind");
    size_t len = sizeof r->endpoint;
    if (zmq_getsockopt (s, ZMQ_LAST_ENDPOINT, r->endpoint, &len) != 0)
        setup_failed ("ZMQ_LAST_ENDPOINT");
    barrier_wait (&r->bound);

    struct receiver x = {.r = r, .sock = s, .mode = o->mode, .api = o->api,
                         .timeout_ms = o->timeout_ms};
    if (zmq_msg_init (&x.msg) != 0)
        setup_failed ("zmq_msg_init");
    /* buf: large enough for a payload and for a routing-id frame */
    x.buf = malloc (o->size < 256 ? 256 : o->size);
    if (!x.buf)
        setup_error ("malloc", strerror (ENOMEM));

    if (o->roundtrip) {
        echo (r, s, x.buf, routed);
    } else {
        struct batch_arg warmup = {&x, routed, o->warmup, 0, 0};
        follow_batches (r, receive_batch_fn, &warmup);
        struct batch_arg timed = {&x, routed, o->count, 0, 0};
        receive_batch (&timed);
        r->t_last_recv = now_ns ();
        r->received = timed.received;
        r->bytes = timed.bytes;
    }

    barrier_wait (&r->done);
    if (zmq_msg_close (&x.msg) != 0)
        setup_failed ("zmq_msg_close");
    free (x.buf);
    close_socket (s);
    return NULL;
}

/* ---- --poll-probe ------------------------------------------------------ */

/* What one poll call costs when nothing is ready (timeout 0): N PAIR pairs
 * over inproc, the N bound sockets polled; zmq_poll with the items array
 * against one zmq_poller built once (zmq_poller_wait_all). Batches of
 * --iterations calls alternate between the two; the best batch of each
 * counts (the least disturbed by the rest of the machine). */
static double probe_batch (void *poller, zmq_pollitem_t *items,
                           struct poller_event *events, int n, long long iterations)
{
    const uint64_t t = now_ns ();
    for (long long i = 0; i < iterations; i++) {
        if (poller) {
            if (draft.poller_wait_all (poller, events, n, 0) != -1
                || zmq_errno () != EAGAIN)
                setup_failed ("zmq_poller_wait_all: expected nothing ready (EAGAIN)");
        } else if (zmq_poll (items, n, 0) != 0)
            setup_failed ("zmq_poll: expected nothing ready");
    }
    return (double) (now_ns () - t) / (double) iterations;
}

static int poll_probe (const struct options *o)
{
    require_draft ("--poll-probe (zmq_poller_*)");
    const int n = (int) o->sockets;
    /* default: about a million socket checks per batch */
    const long long iterations =
      o->iterations ? o->iterations : (1000000 / n < 10000 ? 10000 : 1000000 / n);
    void *ctx = zmq_ctx_new ();
    void **socks = calloc ((size_t) n * 2, sizeof *socks);
    zmq_pollitem_t *items = calloc ((size_t) n, sizeof *items);
    struct poller_event *events = calloc ((size_t) n, sizeof *events);
    if (!ctx || !socks || !items || !events)
        setup_error ("setup", "out of memory or zmq_ctx_new failed");
    for (int i = 0; i < n; i++) {
        char addr[64];
        snprintf (addr, sizeof addr, "inproc://nzmq-probe-%d", i);
        if (!(socks[2 * i] = zmq_socket (ctx, ZMQ_PAIR))
            || !(socks[2 * i + 1] = zmq_socket (ctx, ZMQ_PAIR)))
            setup_failed ("zmq_socket");
        set_int_opt (socks[2 * i], ZMQ_LINGER, 0, "ZMQ_LINGER");
        set_int_opt (socks[2 * i + 1], ZMQ_LINGER, 0, "ZMQ_LINGER");
        if (zmq_bind (socks[2 * i], addr) != 0)
            setup_failed ("zmq_bind");
        if (zmq_connect (socks[2 * i + 1], addr) != 0)
            setup_failed ("zmq_connect");
        items[i] = (zmq_pollitem_t){socks[2 * i], 0, ZMQ_POLLIN, 0};
    }
    void *poller = draft.poller_new ();
    if (!poller)
        setup_failed ("zmq_poller_new");
    for (int i = 0; i < n; i++)
        if (draft.poller_add (poller, socks[2 * i], NULL, ZMQ_POLLIN) != 0)
            setup_failed ("zmq_poller_add");

    /* one untimed batch each first (page faults, the poller's first rebuild) */
    probe_batch (NULL, items, events, n, iterations);
    probe_batch (poller, items, events, n, iterations);
    double best_poll = 1e300, best_poller = 1e300;
    for (long long b = 0; b < o->batches; b++) {
        const double a = probe_batch (NULL, items, events, n, iterations);
        const double p = probe_batch (poller, items, events, n, iterations);
        best_poll = a < best_poll ? a : best_poll;
        best_poller = p < best_poller ? p : best_poller;
    }

    if (draft.poller_destroy (&poller) != 0)
        setup_failed ("zmq_poller_destroy");
    for (int i = 0; i < 2 * n; i++)
        close_socket (socks[i]);
    while (zmq_ctx_term (ctx) != 0)
        if (zmq_errno () != EINTR)
            setup_failed ("zmq_ctx_term");
    free (socks);
    free (items);
    free (events);
    printf ("poll_probe sockets=%d iterations=%lld batches=%lld zmq_poll_ns=%.1f "
            "zmq_poller_ns=%.1f poll_over_poller=%.2f ",
            n, iterations, o->batches, best_poll, best_poller, best_poll / best_poller);
    print_libzmq ();
    printf ("\n");
    return fflush (stdout) == 0 ? 0 : EXIT_SETUP;
}

/* ---- Command line and main --------------------------------------------- */

static void usage (FILE *f)
{
    fputs ("usage: nzmq_native\n"
           "  [--pattern pushpull|pubsub|routerrouter|pair|dealerrouter|\n"
           "             dealerdealer|routerrouterpoller|clientserver|radiodish]\n"
           "  [--transport inproc|ipc|tcp] [--size N] [--count N] [--hwm N]\n"
           "  [--mode blocking|nonblocking|poller] [--api msg|buf|zc]\n"
           "  [--timeout-ms N] [--warmup N] [--warmup-seconds S]\n"
           "  [--roundtrip]   (with --pattern reqrep|dealerrouter, --api buf)\n"
           "  --pattern clientserver|radiodish: draft sockets (radiodish: --api msg,\n"
           "             not over udp); exit 4 when the libzmq has no draft API\n"
           "  --poll-probe [--sockets N] [--iterations N] [--batches N]\n"
           "             ns per zmq_poll vs zmq_poller_wait_all call, nothing ready\n"
           "  --draft-check   print the loaded libzmq; exit 4 without the draft API\n"
           "defaults: pushpull tcp, 64 B x 100000, blocking, msg, libzmq's HWM,\n"
           "          20000 ms, no untimed batches\n",
           f);
}

static int parse_name (const char *v, const char *const *names, int n,
                       const char *opt)
{
    for (int i = 0; i < n; i++)
        if (strcmp (v, names[i]) == 0)
            return i;
    fprintf (stderr, "nzmq_native: --%s: unknown value '%s'\n", opt, v);
    exit (EXIT_USAGE);
}

static long long parse_num (const char *v, long long min, long long max,
                            const char *opt)
{
    char *end;
    errno = 0;
    long long x = strtoll (v, &end, 10);
    if (errno || end == v || *end || x < min || x > max) {
        fprintf (stderr, "nzmq_native: --%s: '%s' is not a number in [%lld, %lld]\n",
                 opt, v, min, max);
        exit (EXIT_USAGE);
    }
    return x;
}

static void parse_args (int argc, char **argv, struct options *o)
{
#define ARG(name, c) {name, required_argument, NULL, c}
    static const struct option longopts[] = {
      ARG ("pattern", 'p'), ARG ("transport", 't'), ARG ("size", 's'),
      ARG ("count", 'n'),   ARG ("mode", 'm'),      ARG ("api", 'a'),
      ARG ("hwm", 'w'),     ARG ("timeout-ms", 'T'),
      ARG ("warmup", 'W'),  ARG ("warmup-seconds", 'S'),
      {"roundtrip", no_argument, NULL, 'R'},
      {"poll-probe", no_argument, NULL, 'P'}, {"draft-check", no_argument, NULL, 'D'},
      ARG ("sockets", 'k'), ARG ("iterations", 'i'), ARG ("batches", 'b'),
      {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long (argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
#define NAME(table, opt) parse_name (optarg, table, COUNT_OF (table), opt)
            case 'p': o->pattern = NAME (pattern_names, "pattern"); break;
            case 't': o->transport = NAME (transport_names, "transport"); break;
            case 'm': o->mode = NAME (mode_names, "mode"); break;
            case 'a': o->api = NAME (api_names, "api"); break;
            /* size >= 1: zero-length messages are reserved for warm-up;
             * <= 1 GiB keeps every frame size within zmq_recv's int result */
            case 's': o->size = (size_t) parse_num (optarg, 1, 1 << 30, "size"); break;
            case 'n': o->count = parse_num (optarg, 1, 1LL << 40, "count"); break;
            case 'w': o->hwm = (int) parse_num (optarg, 0, INT_MAX, "hwm"); break;
            case 'T':
                o->timeout_ms = (int) parse_num (optarg, 1, INT_MAX / 2, "timeout-ms");
                break;
            case 'W': o->warmup = parse_num (optarg, 0, 1LL << 40, "warmup"); break;
            case 'S': {
                char *end;
                o->warmup_seconds = strtod (optarg, &end);
                if (end == optarg || *end || !(o->warmup_seconds >= 0)
                    || o->warmup_seconds > 3600) {
                    fprintf (stderr, "nzmq_native: --warmup-seconds: '%s' is not a number in [0, 3600]\n", optarg);
                    exit (EXIT_USAGE);
                }
                break;
            }
            case 'R': o->roundtrip = 1; break;
            case 'P': o->poll_probe = 1; break;
            case 'D': o->draft_check = 1; break;
            case 'k': o->sockets = parse_num (optarg, 1, 1000, "sockets"); break;
            case 'i': o->iterations = parse_num (optarg, 1, 1LL << 40, "iterations"); break;
            case 'b': o->batches = parse_num (optarg, 1, 1000, "batches"); break;
            case 'h': usage (stdout); exit (0);
            default: usage (stderr); exit (EXIT_USAGE);
        }
    }
    if (optind != argc) {
        fprintf (stderr, "nzmq_native: unexpected argument '%s'\n", argv[optind]);
        usage (stderr);
        exit (EXIT_USAGE);
    }
    const int pingable = o->pattern == REQREP || o->pattern == DEALERROUTER;
    if (o->roundtrip && (!pingable || o->api != API_BUF || o->mode != BLOCKING)) {
        fputs ("nzmq_native: --roundtrip needs --pattern reqrep|dealerrouter, --api buf and --mode blocking\n", stderr);
        exit (EXIT_USAGE);
    }
    if (o->pattern == ROUTERROUTERPOLLER && o->mode != BLOCKING) {
        /* it waits in zmq_poll itself before each message */
        fputs ("nzmq_native: --pattern routerrouterpoller needs --mode blocking\n", stderr);
        exit (EXIT_USAGE);
    }
    if (o->pattern == RADIODISH && o->api != API_MSG) {
        /* every RADIO message needs zmq_msg_set_group: only the msg path has one
         * (the .NET side: Message with Group) */
        fputs ("nzmq_native: --pattern radiodish needs --api msg\n", stderr);
        exit (EXIT_USAGE);
    }
    if (!o->roundtrip && o->pattern == REQREP) {
        fputs ("nzmq_native: --pattern reqrep needs --roundtrip\n", stderr);
        exit (EXIT_USAGE);
    }
}

/* Address the receiver binds to; unique per run, no fixed ports. */
static void make_bind_addr (struct run *r)
{
    switch (r->opt->transport) {
        case INPROC:
            snprintf (r->bind_addr, sizeof r->bind_addr, "inproc://nzmq-native-%ld",
                      (long) getpid ());
            break;
        case IPC:
            snprintf (ipc_dir, sizeof ipc_dir, "/tmp/nzmq-native-XXXXXX");
            if (!mkdtemp (ipc_dir)) {
                ipc_dir[0] = '\0';
                setup_error ("mkdtemp", strerror (errno));
            }
            snprintf (ipc_file, sizeof ipc_file, "%s/s", ipc_dir);
            snprintf (r->bind_addr, sizeof r->bind_addr, "ipc://%s", ipc_file);
            break;
        case TCP: /* the OS picks a free port; read back via LAST_ENDPOINT */
            snprintf (r->bind_addr, sizeof r->bind_addr, "tcp://127.0.0.1:*");
            break;
    }
}

int main (int argc, char **argv)
{
    struct options o = {.pattern = PUSHPULL, .transport = TCP, .mode = BLOCKING,
                        .api = API_MSG, .size = 64, .count = 100000,
                        .hwm = -1, .timeout_ms = 20000,
                        .sockets = 1, .iterations = 0, .batches = 5};
    parse_args (argc, argv, &o);
    if (o.draft_check) {
        print_libzmq ();
        printf ("\n");
        require_draft ("--draft-check");
        return 0;
    }
    if (o.poll_probe)
        return poll_probe (&o);
    if (o.pattern == CLIENTSERVER || o.pattern == RADIODISH)
        require_draft (pattern_names[o.pattern]);
    if (o.pattern == RADIODISH)
        send_group = RADIO_GROUP;

    static struct run r; /* static: large, and zero-initialised */
    r.opt = &o;
    atomic_init (&r.warm, 0);
    atomic_init (&r.failed, 0);
    atomic_init (&r.more_warmup, 0);
    if (o.roundtrip && !(r.rtt = calloc ((size_t) o.count, sizeof *r.rtt)))
        setup_error ("calloc", strerror (ENOMEM));
    make_bind_addr (&r);

    r.ctx = zmq_ctx_new ();
    if (!r.ctx)
        setup_failed ("zmq_ctx_new");
    int rc;
    if ((rc = pthread_barrier_init (&r.bound, NULL, 2)) != 0
        || (rc = pthread_barrier_init (&r.done, NULL, 2)) != 0
        || (rc = pthread_barrier_init (&r.batch, NULL, 2)) != 0)
        setup_error ("pthread_barrier_init", strerror (rc));

    pthread_t receiver, sender;
    if ((rc = pthread_create (&receiver, NULL, receiver_main, &r)) != 0
        || (rc = pthread_create (&sender, NULL, sender_main, &r)) != 0)
        setup_error ("pthread_create", strerror (rc));
    if ((rc = pthread_join (sender, NULL)) != 0
        || (rc = pthread_join (receiver, NULL)) != 0)
        setup_error ("pthread_join", strerror (rc));
    /* all sockets are closed with LINGER=0, so this returns promptly */
    while (zmq_ctx_term (r.ctx) != 0)
        if (zmq_errno () != EINTR)
            setup_failed ("zmq_ctx_term");
    pthread_barrier_destroy (&r.bound);
    pthread_barrier_destroy (&r.done);
    pthread_barrier_destroy (&r.batch);
    cleanup_ipc ();

    const unsigned long long want = (unsigned long long) o.count * o.size;
    if (!atomic_load (&r.failed) && r.bytes != want) {
        snprintf (r.failure, sizeof r.failure,
                  "payload byte count %llu, expected %llu", r.bytes, want);
        atomic_store (&r.failed, 1);
    }
    if (atomic_load (&r.failed)) {
        fprintf (stderr, "nzmq_native: run failed: %s (received %lld of %lld)\n",
                 r.failure, r.received, o.count);
        return EXIT_RUN;
    }

    const double secs = (double) (r.t_last_recv - r.t_first_send) / 1e9;
    const double mps = (double) o.count / secs;
    char hwm[16] = "default";
    if (o.hwm >= 0)
        snprintf (hwm, sizeof hwm, "%d", o.hwm);
    cpu_set_t cpus;
    const int ncpu =
      sched_getaffinity (0, sizeof cpus, &cpus) == 0 ? CPU_COUNT (&cpus) : -1;
    int major, minor, patch;
    zmq_version (&major, &minor, &patch);

    printf ("pattern=%s transport=%s size=%zu count=%lld mode=%s api=%s "
            "hwm=%s seconds=%.6f msg_per_sec=%.0f mb_per_sec=%.1f "
            "send_seconds=%.6f cpus=%d libzmq=%d.%d.%d warmup=%lldx%lld "
            "draft=%d libzmq_path=%s",
            pattern_names[o.pattern], transport_names[o.transport], o.size,
            o.count, mode_names[o.mode], api_names[o.api], hwm, secs, mps,
            mps * (double) o.size / 1e6,
            (double) (r.t_send_end - r.t_first_send) / 1e9, ncpu, major, minor,
            patch, o.warmup, r.warmup_batches, draft_loaded (), libzmq_path ());
    if (o.roundtrip) {
        /* nearest rank: the smallest sample with at least p% at or below it */
        qsort (r.rtt, (size_t) o.count, sizeof *r.rtt, cmp_u64);
        const long long i50 = (o.count * 50 + 99) / 100 - 1;
        const long long i99 = (o.count * 99 + 99) / 100 - 1;
        printf (" rtt_p50_us=%.2f rtt_p99_us=%.2f rtt_mean_us=%.2f",
                (double) r.rtt[i50] / 1e3, (double) r.rtt[i99] / 1e3,
                secs * 1e6 / (double) o.count);
    }
    printf ("\n");
    free (r.rtt);
    return fflush (stdout) == 0 ? 0 : EXIT_SETUP;
}
