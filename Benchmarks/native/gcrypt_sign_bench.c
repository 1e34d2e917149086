/* Times libgcrypt's ECDSA P-256 and Ed25519 sign and verify, for comparison with `kdbx-bench p256 ed25519`.
 * libgcrypt is what KeePassXC links for its crypto. Build and run (Debian: libgcrypt20-dev):
 *   cc -O2 -o /tmp/gcrypt_sign_bench Benchmarks/native/gcrypt_sign_bench.c -lgcrypt && /tmp/gcrypt_sign_bench
 * Prints one line per operation: name, operations per second (best of 5 runs of about 1 s). */
#include <gcrypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void check(gcry_error_t error, const char *what) {
  if (error) {
    fprintf(stderr, "%s: %s\n", what, gcry_strerror(error));
    exit(1);
  }
}

static void bench(const char *name, const char *genkey, const char *data_format) {
  gcry_sexp_t parameters, pair, public_key, private_key, data, signature;
  unsigned char message[32];
  for (int i = 0; i < 32; i++) message[i] = (unsigned char)(i * 7 + 1);
  check(gcry_sexp_build(&parameters, NULL, genkey), "genkey parameters");
  check(gcry_pk_genkey(&pair, parameters), "genkey");
  public_key = gcry_sexp_find_token(pair, "public-key", 0);
  private_key = gcry_sexp_find_token(pair, "private-key", 0);
  check(gcry_sexp_build(&data, NULL, data_format, 32, message), "data");
  check(gcry_pk_sign(&signature, data, private_key), "sign");
  check(gcry_pk_verify(signature, data, public_key), "verify");
  for (int operation = 0; operation < 2; operation++) {
    double best = 0;
    for (int run = 0; run < 5; run++) {
      int count = 0;
      double start = now(), elapsed = 0;
      while ((elapsed = now() - start) < 1.0) {
        if (operation == 0) {
          gcry_sexp_t fresh;
          check(gcry_pk_sign(&fresh, data, private_key), "sign");
          gcry_sexp_release(fresh);
        } else {
          check(gcry_pk_verify(signature, data, public_key), "verify");
        }
        count++;
      }
      if (count / elapsed > best) best = count / elapsed;
    }
    printf("gcrypt-%s-%s\t%.1f\t%s/s\n", name, operation == 0 ? "sign" : "verify", best,
           operation == 0 ? "sign" : "verify");
  }
}

int main(void) {
  if (!gcry_check_version(GCRYPT_VERSION)) return 1;
  gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
  gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
  printf("libgcrypt %s\n", gcry_check_version(NULL));
  bench("p256", "(genkey (ecc (curve \"NIST P-256\")))", "(data (flags raw) (value %b))");
  bench("ed25519", "(genkey (ecc (curve Ed25519) (flags eddsa)))",
        "(data (flags eddsa) (hash-algo sha512) (value %b))");
  return 0;
}
