/* The run-time support linked into every native module library.
 *
 * - The runner-utils functions lowered programs call (vector.print's printF32, printI64,
 *   ..., and printMemref*): they hand their values to callbacks the engine installs, so
 *   the text is the other engines' (mlir-runner's, with buffers numbered 0x1000, 0x2000,
 *   ... instead of their addresses) and goes where the run's output goes.
 * - memrefCopy, which finalize-memref-to-llvm calls for copies between non-contiguous
 *   memrefs (a strided copy, as MLIR's CRunnerUtils does it).
 * - rtclock, and heterolayout_opaque: a call LLVM cannot see into, which timing loops
 *   make between repetitions so that repeated calls of a kernel are not folded away.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

enum {
  HL_I64, HL_U64, HL_F32, HL_F64, HL_F16, HL_BF16,
  HL_NEWLINE, HL_COMMA, HL_OPEN, HL_CLOSE, HL_STRING
};

typedef void (*hl_scalar_callback)(int32_t kind, int64_t bits, double value);
typedef void (*hl_memref_callback)(int32_t kind, int64_t rank, void *descriptor);

hl_scalar_callback heterolayout_print_scalar = 0;
hl_memref_callback heterolayout_print_memref = 0;

static void scalar(int32_t kind, int64_t bits, double value) {
  if (heterolayout_print_scalar) heterolayout_print_scalar(kind, bits, value);
}

void printI64(int64_t v) { scalar(HL_I64, v, 0.0); }
void printU64(uint64_t v) { scalar(HL_U64, (int64_t)v, 0.0); }
void printF32(float v) { scalar(HL_F32, 0, (double)v); }
void printF64(double v) { scalar(HL_F64, 0, v); }
void printF16(uint16_t bits) { scalar(HL_F16, bits, 0.0); }
void printBF16(uint16_t bits) { scalar(HL_BF16, bits, 0.0); }
void printNewline(void) { scalar(HL_NEWLINE, 0, 0.0); }
void printComma(void) { scalar(HL_COMMA, 0, 0.0); }
void printOpen(void) { scalar(HL_OPEN, 0, 0.0); }
void printClose(void) { scalar(HL_CLOSE, 0, 0.0); }
void printString(const char *text) { scalar(HL_STRING, (int64_t)(intptr_t)text, 0.0); }

typedef struct {
  int64_t rank;
  void *descriptor;
} UnrankedMemRef;

enum { HL_MEMREF_I16, HL_MEMREF_I32, HL_MEMREF_I64, HL_MEMREF_IND, HL_MEMREF_F16,
       HL_MEMREF_F32, HL_MEMREF_F64 };

static void memref(int32_t kind, int64_t rank, void *descriptor) {
  if (heterolayout_print_memref) heterolayout_print_memref(kind, rank, descriptor);
}

#define PRINT_MEMREF(NAME, KIND)                                                      \
  void printMemref##NAME(int64_t rank, void *descriptor) { memref(KIND, rank, descriptor); } \
  void _mlir_ciface_printMemref##NAME(UnrankedMemRef *m) { memref(KIND, m->rank, m->descriptor); }

PRINT_MEMREF(I16, HL_MEMREF_I16)
PRINT_MEMREF(I32, HL_MEMREF_I32)
PRINT_MEMREF(I64, HL_MEMREF_I64)
PRINT_MEMREF(Ind, HL_MEMREF_IND)
PRINT_MEMREF(F16, HL_MEMREF_F16)
PRINT_MEMREF(F32, HL_MEMREF_F32)
PRINT_MEMREF(F64, HL_MEMREF_F64)

/* A ranked descriptor: allocated, aligned, offset, sizes[rank], strides[rank]. */
typedef struct {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t shape[];
} Descriptor;

void memrefCopy(int64_t element_size, UnrankedMemRef *source, UnrankedMemRef *target) {
  int64_t rank = source->rank;
  Descriptor *s = (Descriptor *)source->descriptor, *t = (Descriptor *)target->descriptor;
  const int64_t *sizes = s->shape, *s_strides = s->shape + rank, *t_strides = t->shape + rank;
  char *from = s->aligned + s->offset * element_size;
  char *to = t->aligned + t->offset * element_size;
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d) count *= sizes[d];
  if (count == 0) return;
  if (rank == 0) { memcpy(to, from, element_size); return; }
  int64_t index[rank];
  memset(index, 0, sizeof(index));
  int64_t inner = rank - 1;
  int64_t run = sizes[inner] * element_size;
  int contiguous = s_strides[inner] == 1 && t_strides[inner] == 1;
  for (;;) {
    if (contiguous) {
      memcpy(to, from, run);
    } else {
      for (int64_t i = 0; i < sizes[inner]; ++i)
        memcpy(to + i * t_strides[inner] * element_size, from + i * s_strides[inner] * element_size,
               element_size);
    }
    int64_t d = inner - 1;
    for (; d >= 0; --d) {
      from += s_strides[d] * element_size;
      to += t_strides[d] * element_size;
      if (++index[d] < sizes[d]) break;
      from -= sizes[d] * s_strides[d] * element_size;
      to -= sizes[d] * t_strides[d] * element_size;
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

double rtclock(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

__attribute__((noinline)) void heterolayout_opaque(int64_t value) {
  __asm__ volatile("" : : "r"(value) : "memory");
}

/* Whether `address` lies in the calling thread's stack (a memref.alloca a function
 * returned): such a result is copied, never freed. */
int32_t heterolayout_on_stack(const void *address) {
  pthread_attr_t attributes;
  void *base;
  size_t size;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) return 0;
  int found = pthread_attr_getstack(&attributes, &base, &size) == 0;
  pthread_attr_destroy(&attributes);
  return found && (const char *)address >= (const char *)base &&
         (const char *)address < (const char *)base + size;
}
