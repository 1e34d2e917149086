/* libdeflate anchor for compare.py: whole-buffer raw DEFLATE (RFC 1951) compression at levels 1, 6 and 9 and
 * decompression of its own level-6 output, timed in process on one file. Measuring tool only, never part of the
 * library.
 *
 * Usage: libdeflate_bench FILE [RUNS] [LEVELS]   RUNS default 5 (each figure is the median of RUNS timings);
 *        LEVELS default "1,6,9" (a comma-separated list of levels 1...12)
 * Prints one line per figure:
 *   libdeflate level=L in_bytes=N out_bytes=M compress_MBps=X decompress_MBps=Y decompress_fresh_MBps=Z
 * decompress_MBps decompresses into one output buffer reused from run to run; decompress_fresh_MBps into a buffer
 * malloc'ed in the timed region, as an API that returns its output (ours) has to. Compression writes into a reused
 * buffer. MB/s are 1e6 bytes per second of the uncompressed input. Build: gcc -O2 libdeflate_bench.c -ldeflate
 */
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *values, int count) {
  qsort(values, (size_t)count, sizeof(double), compare_doubles);
  return values[count / 2];
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE [RUNS]\n", argv[0]);
    return 2;
  }
  int runs = argc > 2 ? atoi(argv[2]) : 5;
  if (runs < 1) runs = 1;
  FILE *file = fopen(argv[1], "rb");
  if (!file) {
    perror(argv[1]);
    return 1;
  }
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  unsigned char *input = malloc((size_t)size + 1);
  if (!input || fread(input, 1, (size_t)size, file) != (size_t)size) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  fclose(file);
  size_t bound = (size_t)size + (size_t)size / 8 + 4096;
  unsigned char *packed = malloc(bound);
  unsigned char *unpacked = malloc((size_t)size + 1);
  double *times = malloc(sizeof(double) * (size_t)runs);
  int levels[16], level_count = 0;
  const char *list = argc > 3 ? argv[3] : "1,6,9";
  while (*list && level_count < 16) {
    char *end;
    long level = strtol(list, &end, 10);
    if (end == list || level < 0 || level > 12) {
      fprintf(stderr, "bad level list %s\n", argv[3]);
      return 2;
    }
    levels[level_count++] = (int)level;
    list = *end == ',' ? end + 1 : end;
  }
  for (int l = 0; l < level_count; l++) {
    struct libdeflate_compressor *compressor = libdeflate_alloc_compressor(levels[l]);
    size_t out = 0;
    for (int r = 0; r < runs; r++) {
      double start = now();
      out = libdeflate_deflate_compress(compressor, input, (size_t)size, packed, bound);
      times[r] = now() - start;
    }
    libdeflate_free_compressor(compressor);
    double compress_time = median(times, runs);
    struct libdeflate_decompressor *decompressor = libdeflate_alloc_decompressor();
    /* Into a buffer reused from run to run (its pages already mapped and warm). */
    for (int r = 0; r < runs; r++) {
      size_t actual = 0;
      double start = now();
      enum libdeflate_result result =
          libdeflate_deflate_decompress(decompressor, packed, out, unpacked, (size_t)size, &actual);
      times[r] = now() - start;
      if (result != LIBDEFLATE_SUCCESS || actual != (size_t)size || memcmp(unpacked, input, (size_t)size) != 0) {
        fprintf(stderr, "round trip failed at level %d\n", levels[l]);
        return 1;
      }
    }
    double reused_time = median(times, runs);
    /* Into a buffer allocated for the call (as an API that returns the output must; freed untimed). */
    for (int r = 0; r < runs; r++) {
      size_t actual = 0;
      double start = now();
      unsigned char *fresh = malloc((size_t)size + 1);
      enum libdeflate_result result =
          fresh ? libdeflate_deflate_decompress(decompressor, packed, out, fresh, (size_t)size, &actual)
                : LIBDEFLATE_INSUFFICIENT_SPACE;
      times[r] = now() - start;
      if (result != LIBDEFLATE_SUCCESS || actual != (size_t)size || memcmp(fresh, input, (size_t)size) != 0) {
        fprintf(stderr, "round trip failed at level %d\n", levels[l]);
        return 1;
      }
      free(fresh);
    }
    double fresh_time = median(times, runs);
    libdeflate_free_decompressor(decompressor);
    printf("libdeflate level=%d in_bytes=%ld out_bytes=%zu compress_MBps=%.1f decompress_MBps=%.1f "
           "decompress_fresh_MBps=%.1f\n",
           levels[l], size, out, (double)size / 1e6 / compress_time, (double)size / 1e6 / reused_time,
           (double)size / 1e6 / fresh_time);
    fflush(stdout);
  }
  free(input);
  free(packed);
  free(unpacked);
  free(times);
  return 0;
}
