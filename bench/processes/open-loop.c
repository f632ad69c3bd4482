// Open-loop HTTP/1.1 load at a constant arrival rate, in C (the role wrk2 plays; Debian does not
// package it, decisions.md 78). Built by bench/lib/generators.mjs with the machine's C compiler,
// and the one generator for half load and the latency curve: a Node generator spent 0.4 ms of CPU
// per request on the core it shares with PostgreSQL and Redis, and its own event loop sent
// requests up to 20–60 ms late; that lateness is counted in every latency.
//
// Request i is due at start + i / rate whatever happened to earlier ones; its latency runs from
// when it was due, not from when it was sent (no coordinated omission). A request due while all
// connections are busy waits for the first free one, and that wait is counted too.
//
//   open-loop <port> <rate> <seconds> <warmup seconds> <connections> <requests file>
// The requests file holds the raw requests to go round: "<count>\n" then, for each,
// "<length>\n<bytes>". Connects to 127.0.0.1 only. Prints one JSON object.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct {
  int fd;
  int busy;
  long long due;      // due time of the request in flight (ns)
  int measured;       // whether that request is counted
  char buf[1 << 18];  // a whole response (the list of 100 brands is about 90 KB)
  size_t len;
} conn_t;

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double quantile(double *sorted, long n, double q) {
  if (n == 0) return 0;
  long i = (long)(q * n);
  if (i >= n) i = n - 1;
  return sorted[i];
}

static int open_conn(int port, int epfd, conn_t *c) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  struct sockaddr_in addr = {0};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) { close(fd); return -1; }
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
  epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
  c->fd = fd;
  c->busy = 0;
  c->len = 0;
  return 0;
}

// Length of the complete response at the start of buf, 0 if not complete yet, -1 if malformed.
static long response_length(const char *buf, size_t len, int *status) {
  const char *end = memmem(buf, len, "\r\n\r\n", 4);
  if (!end) return 0;
  size_t head = (size_t)(end - buf) + 4;
  if (len < 12 || strncmp(buf, "HTTP/1.", 7) != 0) return -1;
  *status = atoi(buf + 9);
  for (const char *p = buf; p < end; p++) {
    if (p[0] == '\n' && strncasecmp(p + 1, "content-length:", 15) == 0) {
      long body = atol(p + 16);
      return len >= head + (size_t)body ? (long)(head + body) : 0;
    }
    if (p[0] == '\n' && strncasecmp(p + 1, "transfer-encoding:", 18) == 0) {
      const char *last = memmem(end, len - (size_t)(end - buf), "\r\n0\r\n\r\n", 7);
      return last ? (long)(last - buf + 7) : 0;
    }
  }
  return (long)head;  // no body (204, 304)
}

int main(int argc, char **argv) {
  if (argc != 7) {
    fprintf(stderr, "usage: open-loop <port> <rate> <seconds> <warmup> <connections> <requests file>\n");
    return 2;
  }
  int port = atoi(argv[1]);
  double rate = atof(argv[2]), seconds = atof(argv[3]), warmup = atof(argv[4]);
  int nconns = atoi(argv[5]);
  FILE *f = fopen(argv[6], "rb");
  if (!f) { perror("requests file"); return 2; }
  int nreq = 0;
  if (fscanf(f, "%d\n", &nreq) != 1 || nreq <= 0) { fprintf(stderr, "bad requests file\n"); return 2; }
  char **reqs = calloc(nreq, sizeof *reqs);
  size_t *reqlen = calloc(nreq, sizeof *reqlen);
  for (int i = 0; i < nreq; i++) {
    if (fscanf(f, "%zu\n", &reqlen[i]) != 1) { fprintf(stderr, "bad requests file\n"); return 2; }
    reqs[i] = malloc(reqlen[i]);
    if (fread(reqs[i], 1, reqlen[i], f) != reqlen[i]) { fprintf(stderr, "bad requests file\n"); return 2; }
  }
  fclose(f);

  int epfd = epoll_create1(0);
  conn_t *conns = calloc(nconns, sizeof *conns);
  for (int i = 0; i < nconns; i++)
    if (open_conn(port, epfd, &conns[i]) != 0) { perror("connect"); return 1; }

  long warm = (long)(rate * warmup), measured_total = (long)(rate * seconds);
  if (measured_total < 1) measured_total = 1;
  long total = warm + measured_total;
  double interval = 1e9 / rate;
  double *lat = calloc(measured_total, sizeof *lat), *lag = calloc(measured_total, sizeof *lag);
  long *waiting = calloc(total, sizeof *waiting);  // FIFO of due requests without a free connection
  long wait_head = 0, wait_tail = 0;
  long sent = 0, done = 0, counted = 0, lags = 0, errors = 0, outstanding = 0;
  long long start = now_ns() + 5000000LL, measure_start = start + (long long)(warm * interval);
  long long last_done = start;
  struct epoll_event events[256];

  for (;;) {
    long long now = now_ns();
    // Every request now due is either sent on a free connection or queued for the next one.
    while (sent < total) {
      long long due = start + (long long)(sent * interval);
      if (due > now) break;
      if (sent >= warm && lags < measured_total) lag[lags++] = (now - due) / 1e6;
      waiting[wait_tail++] = sent++;
    }
    for (int i = 0; i < nconns && wait_head < wait_tail; i++) {
      conn_t *c = &conns[i];
      if (c->busy) continue;
      long id = waiting[wait_head++];
      const char *r = reqs[id % nreq];
      size_t n = reqlen[id % nreq], off = 0;
      while (off < n) {
        ssize_t w = write(c->fd, r + off, n - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        off += (size_t)w;
      }
      c->busy = 1;
      c->due = start + (long long)(id * interval);
      c->measured = id >= warm;
      outstanding++;
      if (off < n) {  // the connection failed while writing: counted as an error
        if (c->measured) { errors++; counted++; }
        c->busy = 0;
        outstanding--;
      }
    }
    if (sent >= total && outstanding == 0 && wait_head == wait_tail) break;
    if (sent >= total && now - (start + (long long)(total * interval)) > 30000000000LL) break;  // 30 s after the last due
    long long wait_ns = 1000000LL;  // all sent: wake at least every millisecond
    if (sent < total) {
      long long next = start + (long long)(sent * interval);
      wait_ns = next > now ? next - now : 0;
    }
    // Sleeps until the next request is due or a response arrives, to the nanosecond. A timeout in
    // whole milliseconds was 0 whenever the next request was due within 1 ms (always above
    // 1,000 requests/s): the generator then spun on epoll_wait at the top priority of core 1 and
    // took most of it from PostgreSQL and Redis (4.1 s of CPU for 6,400 requests at 1,071/s).
    struct timespec ts = { (time_t)(wait_ns / 1000000000LL), (long)(wait_ns % 1000000000LL) };
    int n = epoll_pwait2(epfd, events, 256, &ts, NULL);
    if (n < 0 && errno == ENOSYS) n = epoll_wait(epfd, events, 256, (int)((wait_ns + 999999) / 1000000));
    for (int e = 0; e < n; e++) {
      conn_t *c = events[e].data.ptr;
      ssize_t r = read(c->fd, c->buf + c->len, sizeof c->buf - c->len);
      if (r <= 0) {
        if (r < 0 && errno == EINTR) continue;
        // The server closed the connection: the request in flight failed; open another.
        if (c->busy) { outstanding--; if (c->measured) { errors++; counted++; } }
        epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL);
        close(c->fd);
        if (open_conn(port, epfd, c) != 0) { perror("reconnect"); return 1; }
        continue;
      }
      c->len += (size_t)r;
      int status = 0;
      long whole = response_length(c->buf, c->len, &status);
      if (whole == 0 && c->len < sizeof c->buf) continue;
      if (whole == 0) {
        // Larger than the buffer (256 KB): counted as an error,
        // and the connection replaced so that the rest of it is not read as the next response.
        if (c->busy) { outstanding--; if (c->measured) { errors++; counted++; } }
        epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL);
        close(c->fd);
        if (open_conn(port, epfd, c) != 0) { perror("reconnect"); return 1; }
        continue;
      }
      long long at = now_ns();
      if (c->busy) {
        outstanding--;
        if (c->measured) {
          if (done < measured_total) lat[done++] = (at - c->due) / 1e6;
          counted++;
          // 304 answers a conditional GET (the If-None-Match scenario): a success with no body.
          if (whole < 0 || status < 200 || (status >= 300 && status != 304)) errors++;
          last_done = at;
        }
      }
      c->busy = 0;
      // Responses are whole and one at a time (no pipelining): anything left is dropped.
      c->len = 0;
    }
  }

  qsort(lat, done, sizeof *lat, cmp_double);
  qsort(lag, lags, sizeof *lag, cmp_double);
  double secs = (last_done - measure_start) / 1e9;
  if (secs <= 0) secs = seconds;
  printf("{\"rps\":%.1f,\"p50Ms\":%.1f,\"p99Ms\":%.1f,\"maxMs\":%.1f,\"errors\":%ld,\"requests\":%ld,"
         "\"generator\":{\"kind\":\"c\",\"sendLagP99Ms\":%.1f,\"sendLagMaxMs\":%.1f}}\n",
         done / secs, quantile(lat, done, 0.5), quantile(lat, done, 0.99), done ? lat[done - 1] : 0, errors + (measured_total - counted),
         done, quantile(lag, lags, 0.99), lags ? lag[lags - 1] : 0);
  return 0;
}
