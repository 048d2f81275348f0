// SPDX-License-Identifier: GPL-2.0-only
/*
 * tcp_stream - one TCP stream over IPv6 for the guest suites: a receiver
 * that counts and hashes what arrives, a sender that sends a size or a
 * steady trickle.  Each prints one line; a socket error ends the stream
 * and is printed (its errno name) in place of "eof" / "ok".  A C program
 * rather than a script: a Python interpreter took 1.5 s to start in a
 * TCG guest, twice per transfer.
 *
 *   tcp_stream rx PORT [--rcvbuf B] [--timeout S] [--ready FILE]
 *                [--pause-at N ... --go GO]
 *       accept one connection, read to EOF: "BYTES SHA256 eof|ERROR";
 *       FILE gets a line "listening" once it listens, "receiving" once
 *       data arrives (the suites wait on it, spritzctl-lib.sh); with
 *       --pause-at, it reads exactly N bytes, writes "paused K" (the K-th
 *       pause) to FILE and reads no more until GO has K lines
 *   tcp_stream tx ADDR PORT [--size N] [--stop FILE --every MS
 *                [--chunk B] [--min N]] [--sndbuf B] [--timeout S]
 *       N bytes in 1 MiB writes, or a CHUNK (16 KiB) every MS ms until
 *       FILE exists and at least N (--min) were sent; then half-close and
 *       wait for the peer's: "BYTES SECONDS SHA256 ok|ERROR"
 *   tcp_stream sum
 *       the SHA-256 of standard input (the tool's own test)
 *
 * The stream's bytes are 0, 1, ..., 255 over and over.  Every blocking
 * step (connect, accept, send, receive, a pause) gives up after the
 * timeout (default 60 s).  Bad arguments exit 2.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define CHUNK_MAX (1 << 20)
#define PAUSES_MAX 16

/* ------------------------------------------------------------ SHA-256 */

/* FIPS 180-4, section 6.2. */
struct sha256 {
	uint32_t h[8];
	uint8_t buf[64];
	uint64_t len;
};

static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

static uint32_t ror(uint32_t x, int n)
{
	return x >> n | x << (32 - n);
}

static void sha256_init(struct sha256 *s)
{
	static const uint32_t h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

	memcpy(s->h, h0, sizeof(h0));
	s->len = 0;
}

/* One 64-byte block into the state. */
static void sha256_block(struct sha256 *s, const uint8_t *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (i = 16; i < 64; i++)
		w[i] = (ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10)) + w[i - 7] +
		       (ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3)) + w[i - 16];
	a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3];
	e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
	for (i = 0; i < 64; i++) {
		t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + sha256_k[i] +
		     w[i];
		t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		h = g, g = f, f = e, e = d + t1;
		d = c, c = b, b = a, a = t1 + t2;
	}
	s->h[0] += a, s->h[1] += b, s->h[2] += c, s->h[3] += d;
	s->h[4] += e, s->h[5] += f, s->h[6] += g, s->h[7] += h;
}

static void sha256_update(struct sha256 *s, const void *data, size_t n)
{
	const uint8_t *p = data;
	size_t fill = s->len % 64, k;

	s->len += n;
	if (fill) {
		k = 64 - fill < n ? 64 - fill : n;
		memcpy(s->buf + fill, p, k);
		p += k, n -= k;
		if (fill + k < 64)
			return;
		sha256_block(s, s->buf);
	}
	for (; n >= 64; p += 64, n -= 64)
		sha256_block(s, p);
	memcpy(s->buf, p, n);
}

/* The digest of @s as 64 hex digits into @hex. */
static void sha256_hex(struct sha256 *s, char hex[65])
{
	uint64_t bits = s->len * 8;
	uint8_t pad[72] = { 0x80 };
	size_t padlen = (s->len % 64 < 56 ? 56 : 120) - s->len % 64;
	int i;

	for (i = 0; i < 8; i++)
		pad[padlen + i] = (uint8_t)(bits >> (56 - 8 * i));
	sha256_update(s, pad, padlen + 8);
	for (i = 0; i < 8; i++)
		snprintf(hex + 8 * i, 9, "%08x", s->h[i]);
}

/* ------------------------------------------------------------ helpers */

static void usage(void)
{
	fprintf(stderr, "usage: tcp_stream rx PORT [--rcvbuf B] [--timeout S] [--ready FILE]\n"
			"                   [--pause-at N ... --go FILE]\n"
			"       tcp_stream tx ADDR PORT [--size N] [--stop FILE --every MS\n"
			"                   [--chunk B] [--min N]] [--sndbuf B] [--timeout S]\n"
			"       tcp_stream sum\n");
	exit(2);
}

static void bad(const char *what, const char *val)
{
	fprintf(stderr, "tcp_stream: failed to parse %s \"%s\"\n", what, val);
	exit(2);
}

/* A non-negative integer argument, below @max. */
static long long num(const char *what, const char *s, long long max)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > max)
		bad(what, s);
	return v;
}

/* A non-negative number of seconds (or milliseconds), fractions allowed. */
static double real(const char *what, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0) || v > 1e6)
		bad(what, s);
	return v;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static void nap(double s)
{
	struct timespec t = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

/* Append @what as a line to @path (if given). */
static void ready(const char *what, const char *path)
{
	FILE *f;

	if (!path)
		return;
	f = fopen(path, "a");
	if (f) {
		fprintf(f, "%s\n", what);
		fclose(f);
	}
}

/* Lines in @path, 0 if it does not exist. */
static long lines(const char *path)
{
	FILE *f = fopen(path, "r");
	long n = 0;
	int c;

	if (!f)
		return 0;
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/* Every blocking call on @fd (connect and accept too) gives up after @s. */
static int set_timeout(int fd, double s)
{
	struct timeval tv = { (time_t)s, (suseconds_t)((s - (double)(time_t)s) * 1e6) };

	if (s == 0)
		tv.tv_usec = 1; /* 0 would mean "never" */
	return setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	       setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/* The stream's bytes from offset @off on, @n of them, into @buf. */
static void pattern(uint8_t *buf, size_t n, uint64_t off)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = (uint8_t)(off + i);
}

/* An error's name for the result line: one word. */
static const char *err_name(int e)
{
	const char *s = strerrorname_np(e);

	return s ? s : "error";
}

/* ------------------------------------------------------------------ rx */

struct rx_args {
	int port, rcvbuf, npause;
	double timeout;
	const char *ready, *go;
	long long pause[PAUSES_MAX];
};

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* Wait until the GO file has @k lines: 0, or ETIMEDOUT. */
static int wait_go(const struct rx_args *a, long k)
{
	double t0 = now();

	while (lines(a->go) < k) {
		if (now() - t0 > a->timeout)
			return ETIMEDOUT;
		nap(0.05);
	}
	return 0;
}

static int rx(const struct rx_args *a)
{
	struct sockaddr_in6 sa = { .sin6_family = AF_INET6, .sin6_port = htons(a->port),
				   .sin6_addr = IN6ADDR_ANY_INIT };
	static uint8_t buf[CHUNK_MAX];
	long long n = 0, want;
	const char *end = "eof";
	int s, c = -1, one = 1, p = 0, e = 0;
	struct sha256 h;
	char hex[65], what[32];
	ssize_t got;

	sha256_init(&h);
	s = socket(AF_INET6, SOCK_STREAM, 0);
	if (s < 0 || setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    /* before listen(): the window scale is chosen at the handshake */
	    (a->rcvbuf && setsockopt(s, SOL_SOCKET, SO_RCVBUF, &a->rcvbuf, sizeof(a->rcvbuf))) ||
	    bind(s, (struct sockaddr *)&sa, sizeof(sa)) || listen(s, 1) ||
	    set_timeout(s, a->timeout)) {
		e = errno;
		goto out;
	}
	ready("listening", a->ready);
	c = accept(s, NULL, NULL);
	if (c < 0 || set_timeout(c, a->timeout)) {
		e = errno;
		goto out;
	}
	for (;;) {
		want = CHUNK_MAX;
		if (p < a->npause && a->pause[p] - n < want)
			want = a->pause[p] - n;
		if (want == 0) {
			snprintf(what, sizeof(what), "paused %d", ++p);
			ready(what, a->ready);
			e = wait_go(a, p);
			if (e)
				goto out;
			continue;
		}
		got = recv(c, buf, (size_t)want, 0);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			e = errno;
			goto out;
		}
		if (got == 0)
			break;
		if (n == 0)
			ready("receiving", a->ready);
		n += got;
		sha256_update(&h, buf, (size_t)got);
	}
out:
	if (e)
		end = err_name(e == EAGAIN ? ETIMEDOUT : e);
	sha256_hex(&h, hex);
	printf("%lld %s %s\n", n, hex, end);
	fflush(stdout);
	if (c >= 0)
		close(c);
	if (s >= 0)
		close(s);
	return 0;
}

static int rx_main(int argc, char **argv)
{
	struct rx_args a = { .timeout = 60 };
	int i;

	if (argc < 1)
		usage();
	a.port = (int)num("PORT", argv[0], 65535);
	for (i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v)
			usage();
		if (!strcmp(o, "--rcvbuf"))
			a.rcvbuf = (int)num(o, v, 1 << 30);
		else if (!strcmp(o, "--timeout"))
			a.timeout = real(o, v);
		else if (!strcmp(o, "--ready"))
			a.ready = v;
		else if (!strcmp(o, "--go"))
			a.go = v;
		else if (!strcmp(o, "--pause-at") && a.npause < PAUSES_MAX)
			a.pause[a.npause++] = num(o, v, 1LL << 50);
		else
			usage();
		i++;
	}
	if (a.npause && !a.go) {
		fprintf(stderr, "tcp_stream: --pause-at needs --go FILE\n");
		return 2;
	}
	qsort(a.pause, (size_t)a.npause, sizeof(a.pause[0]), cmp_ll);
	return rx(&a);
}

/* ------------------------------------------------------------------ tx */

struct tx_args {
	const char *addr, *stop;
	int port, sndbuf;
	long long size, chunk;
	double every, timeout;
};

/* All of @n stream bytes from offset @off: 0 or an errno. */
static int send_all(int fd, uint8_t *buf, size_t n, uint64_t off, struct sha256 *h)
{
	size_t done = 0;
	ssize_t k;

	pattern(buf, n, off);
	sha256_update(h, buf, n);
	while (done < n) {
		k = send(fd, buf + done, n - done, MSG_NOSIGNAL);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return errno == EAGAIN ? ETIMEDOUT : errno;
		done += (size_t)k;
	}
	return 0;
}

static int tx(const struct tx_args *a)
{
	struct sockaddr_in6 sa = { .sin6_family = AF_INET6, .sin6_port = htons(a->port) };
	static uint8_t buf[CHUNK_MAX];
	double t0 = now();
	long long n = 0, k;
	struct sha256 h;
	int s, e = 0;
	char hex[65], c;

	sha256_init(&h);
	if (inet_pton(AF_INET6, a->addr, &sa.sin6_addr) != 1) {
		fprintf(stderr, "tcp_stream: failed to parse ADDR \"%s\"\n", a->addr);
		return 2;
	}
	s = socket(AF_INET6, SOCK_STREAM, 0);
	if (s < 0 || set_timeout(s, a->timeout) ||
	    connect(s, (struct sockaddr *)&sa, sizeof(sa)) ||
	    (a->sndbuf && setsockopt(s, SOL_SOCKET, SO_SNDBUF, &a->sndbuf, sizeof(a->sndbuf)))) {
		e = errno == EINPROGRESS || errno == EAGAIN ? ETIMEDOUT : errno;
		goto out;
	}
	if (a->stop) {
		while ((access(a->stop, F_OK) || n < a->size) && !e) {
			e = send_all(s, buf, (size_t)a->chunk, (uint64_t)n, &h);
			n += e ? 0 : a->chunk;
			nap(a->every / 1000);
		}
	} else {
		while (n < a->size && !e) {
			k = a->size - n < CHUNK_MAX ? a->size - n : CHUNK_MAX;
			e = send_all(s, buf, (size_t)k, (uint64_t)n, &h);
			n += e ? 0 : k;
		}
	}
	if (!e && shutdown(s, SHUT_WR))
		e = errno;
	/* the peer's half-close: it has read everything */
	if (!e && recv(s, &c, 1, 0) < 0)
		e = errno == EAGAIN ? ETIMEDOUT : errno;
out:
	if (s >= 0)
		close(s);
	sha256_hex(&h, hex);
	printf("%lld %.3f %s %s\n", n, now() - t0, hex, e ? err_name(e) : "ok");
	fflush(stdout);
	return 0;
}

static int tx_main(int argc, char **argv)
{
	struct tx_args a = { .chunk = 16384, .every = 2, .timeout = 60 };
	int i;

	if (argc < 2)
		usage();
	a.addr = argv[0];
	a.port = (int)num("PORT", argv[1], 65535);
	for (i = 2; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v)
			usage();
		if (!strcmp(o, "--size") || !strcmp(o, "--min"))
			a.size = num(o, v, 1LL << 50);
		else if (!strcmp(o, "--stop"))
			a.stop = v;
		else if (!strcmp(o, "--every"))
			a.every = real(o, v);
		else if (!strcmp(o, "--chunk"))
			a.chunk = num(o, v, CHUNK_MAX);
		else if (!strcmp(o, "--sndbuf"))
			a.sndbuf = (int)num(o, v, 1 << 30);
		else if (!strcmp(o, "--timeout"))
			a.timeout = real(o, v);
		else
			usage();
		i++;
	}
	if (!a.stop && a.size <= 0) {
		fprintf(stderr, "tcp_stream: tx needs --size N or --stop FILE\n");
		return 2;
	}
	if (a.chunk < 256) {
		fprintf(stderr, "tcp_stream: --chunk is at least 256 bytes\n");
		return 2;
	}
	a.chunk -= a.chunk % 256; /* whole rounds of the pattern */
	return tx(&a);
}

/* ----------------------------------------------------------------- sum */

static int sum_main(void)
{
	static uint8_t buf[65536];
	struct sha256 h;
	char hex[65];
	size_t n;

	sha256_init(&h);
	while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
		sha256_update(&h, buf, n);
	sha256_hex(&h, hex);
	printf("%s\n", hex);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "rx"))
		return rx_main(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "tx"))
		return tx_main(argc - 2, argv + 2);
	if (argc == 2 && !strcmp(argv[1], "sum"))
		return sum_main();
	usage();
	return 2;
}
