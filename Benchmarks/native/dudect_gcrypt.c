/* The dudect check of `kdbx-bench ct-p256` and `ct-ed25519` (Benchmarks/kdbx-bench/PublicKeyBenchmarks.swift), run
 * on libgcrypt's deterministic signers (ECDSA P-256 with RFC 6979 nonces, Ed25519) and on its SHA-256, with the same
 * protocol: two pools of 256 keys made alternately (class 0: 256 copies of one fixed key and message; class 1: random
 * keys and messages), the class drawn at random for every sample, Welch's t over all samples and over samples cropped
 * at the 50th to 99th percentiles, and a control that splits class 0 in two halves at random. It is the reference for
 * what this machine shows on a signer that others have studied: a |t| above 4.5 here, on code that is not ours, is a
 * property of the machine and the method, not of our code. Build and run (Debian: libgcrypt20-dev):
 *   cc -O2 -o /tmp/dudect_gcrypt Benchmarks/native/dudect_gcrypt.c -lgcrypt -lm
 *   /tmp/dudect_gcrypt p256|ed25519|sha256 SAMPLES
 */
#include <gcrypt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define POOL 256

static void check(gcry_error_t error, const char *what) {
  if (error) {
    fprintf(stderr, "%s: %s\n", what, gcry_strerror(error));
    exit(1);
  }
}

static double nanoseconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

/* SplitMix64: the sample schedule and the random messages (not a secret: only a class label). */
static uint64_t state = 0xd0de;
static uint64_t next_random(void) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static void random_bytes(unsigned char *out, size_t count) {
  for (size_t i = 0; i < count; i++) out[i] = (unsigned char)next_random();
}

typedef struct {
  gcry_sexp_t key;
  gcry_sexp_t data;
  unsigned char block[4096 + 32];
} Signer;

static const char *algorithm;

static gcry_sexp_t make_key(void) {
  gcry_sexp_t parameters, pair, key;
  const char *spec = strcmp(algorithm, "p256") == 0 ? "(genkey (ecc (curve \"NIST P-256\")))"
                                                     : "(genkey (ecc (curve Ed25519) (flags eddsa)))";
  check(gcry_sexp_build(&parameters, NULL, spec), "genkey parameters");
  check(gcry_pk_genkey(&pair, parameters), "genkey");
  key = gcry_sexp_find_token(pair, "private-key", 0);
  gcry_sexp_release(pair);
  gcry_sexp_release(parameters);
  return key;
}

/* A fresh copy of `key` (printed and read again), so that each pool entry owns its memory. */
static gcry_sexp_t copy_key(gcry_sexp_t key) {
  size_t length = gcry_sexp_sprint(key, GCRYSEXP_FMT_CANON, NULL, 0);
  char *buffer = malloc(length);
  gcry_sexp_t copy;
  if (!buffer) exit(1);
  gcry_sexp_sprint(key, GCRYSEXP_FMT_CANON, buffer, length);
  check(gcry_sexp_new(&copy, buffer, length, 1), "copy key");
  free(buffer);
  return copy;
}

static gcry_sexp_t make_data(const unsigned char message[32]) {
  gcry_sexp_t data;
  if (strcmp(algorithm, "p256") == 0) {
    unsigned char digest[32];
    gcry_md_hash_buffer(GCRY_MD_SHA256, digest, message, 32);
    check(gcry_sexp_build(&data, NULL, "(data (flags rfc6979) (hash sha256 %b))", 32, digest), "data");
  } else {
    check(gcry_sexp_build(&data, NULL, "(data (flags eddsa) (hash-algo sha512) (value %b))", 32, message), "data");
  }
  return data;
}

static void run(Signer *signer) {
  if (strcmp(algorithm, "sha256") == 0) {
    unsigned char digest[32];
    gcry_md_hash_buffer(GCRY_MD_SHA256, digest, signer->block, sizeof signer->block);
    __asm__ volatile("" : : "r"(digest) : "memory");
    return;
  }
  gcry_sexp_t signature;
  check(gcry_pk_sign(&signature, signer->data, signer->key), "sign");
  gcry_sexp_release(signature);
}

typedef struct {
  double *values;
  size_t count;
} Series;

static void append(Series *series, double value) { series->values[series->count++] = value; }

/* Welch's t of the values of `a` and `b` at or below `cut`. */
static double welch(const Series *a, const Series *b, double cut) {
  double sum[2] = {0, 0}, squares[2] = {0, 0}, count[2] = {0, 0};
  const Series *pair[2] = {a, b};
  for (int k = 0; k < 2; k++) {
    for (size_t i = 0; i < pair[k]->count; i++) {
      double v = pair[k]->values[i];
      if (v > cut) continue;
      sum[k] += v;
      squares[k] += v * v;
      count[k] += 1;
    }
  }
  if (count[0] < 2 || count[1] < 2) return 0;
  double mean0 = sum[0] / count[0], mean1 = sum[1] / count[1];
  double var0 = (squares[0] - count[0] * mean0 * mean0) / (count[0] - 1);
  double var1 = (squares[1] - count[1] * mean1 * mean1) / (count[1] - 1);
  double denominator = sqrt(var0 / count[0] + var1 / count[1]);
  return denominator > 0 ? (mean0 - mean1) / denominator : 0;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(const Series *series) {
  double *sorted = malloc(series->count * sizeof(double));
  if (!sorted || series->count == 0) exit(1);
  memcpy(sorted, series->values, series->count * sizeof(double));
  qsort(sorted, series->count, sizeof(double), compare);
  double value = sorted[series->count / 2];
  free(sorted);
  return value;
}

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[1], "p256") && strcmp(argv[1], "ed25519") && strcmp(argv[1], "sha256"))) {
    fprintf(stderr, "usage: dudect_gcrypt p256|ed25519|sha256 SAMPLES\n");
    return 2;
  }
  algorithm = argv[1];
  long samples = atol(argv[2]);
  if (samples < 100) return 2;
  if (!gcry_check_version(GCRYPT_VERSION)) return 1;
  gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
  gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);

  static Signer signers[2 * POOL];
  unsigned char fixed_message[32], message[32];
  random_bytes(fixed_message, 32);
  int keyed = strcmp(algorithm, "sha256") != 0;
  gcry_sexp_t fixed_key = keyed ? make_key() : NULL;
  for (int index = 0; index < 2 * POOL; index++) {
    int fixed = index % 2 == 0;
    random_bytes(message, 32);
    Signer *signer = &signers[index];
    memset(signer->block, 0, sizeof signer->block);
    memcpy(signer->block + 4096, fixed ? fixed_message : message, 32);
    if (keyed) {
      signer->key = fixed ? copy_key(fixed_key) : make_key();
      signer->data = make_data(fixed ? fixed_message : message);
    }
  }

  Series series[4];
  for (int k = 0; k < 4; k++) {
    series[k].values = malloc((size_t)samples * sizeof(double));
    series[k].count = 0;
    if (!series[k].values) return 1;
  }
  for (int i = 0; i < 1000; i++) run(&signers[next_random() % (2 * POOL)]);
  for (long i = 0; i < samples; i++) {
    uint64_t draw = next_random();
    int group = (int)(draw & 1);
    Signer *signer = &signers[2 * ((draw >> 8) % POOL) + group];
    double start = nanoseconds();
    run(signer);
    double elapsed = nanoseconds() - start;
    append(&series[group], elapsed);
    if (group == 0) append(&series[2 + ((draw >> 40) & 1)], elapsed);
  }

  Series all = {malloc((size_t)samples * sizeof(double)), 0};
  if (!all.values) return 1;
  for (int k = 0; k < 2; k++)
    for (size_t i = 0; i < series[k].count; i++) append(&all, series[k].values[i]);
  qsort(all.values, all.count, sizeof(double), compare);

  printf("libgcrypt %s, %s: %zu fixed + %zu random samples\n", gcry_check_version(NULL), algorithm, series[0].count,
         series[1].count);
  printf("median ns: fixed %.0f, random %.0f\n", median(&series[0]), median(&series[1]));
  double t = welch(&series[0], &series[1], INFINITY), control = welch(&series[2], &series[3], INFINITY);
  double worst = fabs(t), worst_control = fabs(control);
  printf("t (all samples): %.2f, control %.2f\n", t, control);
  int percentiles[] = {50, 75, 90, 95, 99};
  for (int p = 0; p < 5; p++) {
    size_t at = all.count * (size_t)percentiles[p] / 100;
    double cut = all.values[at < all.count ? at : all.count - 1];
    t = welch(&series[0], &series[1], cut);
    control = welch(&series[2], &series[3], cut);
    if (fabs(t) > worst) worst = fabs(t);
    if (fabs(control) > worst_control) worst_control = fabs(control);
    printf("t (below the %dth percentile, %.0f ns): %.2f, control %.2f\n", percentiles[p], cut, t, control);
  }
  printf("max |t| = %.2f (dudect threshold 4.5); control (fixed vs fixed) max |t| = %.2f\n", worst, worst_control);
  return 0;
}
