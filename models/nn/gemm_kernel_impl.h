// The blocked GEMM shared by the instruction-set kernels. Included ONLY by gemm_avx2.cc and
// gemm_avx512.cc, inside an anonymous namespace, after they define `struct Isa` (vector type,
// width kW, tile height in vectors kMv, tile width kNr, and the loads, stores, broadcast, add and
// fused multiply-add). Everything here thus has internal linkage and is compiled for that
// instruction set only.
//
// The loops follow the GotoBLAS scheme without its packing of B: a register tile of C (kMv
// vectors x kNr columns) accumulates one k-block (kGemmKcBlock) with fused multiply-adds before it
// is written to C. Its rows of op(A) are loaded as vectors, from A itself where they are
// contiguous, else from a block of kGemmMc rows packed into panels zero-padded to whole vectors;
// its columns of op(B) are broadcast one element at a time, from B itself. Each element of C
// therefore sees exactly the order gemm.h defines: a zero-started FMA chain per k-block, the
// blocks added to C in order. The tile shape, the padding, where the operands are read from and
// the vector width decide only which elements are computed together, never how one is computed.
//
// Why B is not packed and A is packed only when it must be: the MLP's products have a mini-batch
// of 16 as n or k, so each float of A or B takes part in only 16 to 784 multiply-adds, and copying
// it first cost more than reading it where it is. On a 2-core Intel AVX-512 machine (2026-12-07,
// `hermes-sim bench math`) dropping the copies took the MLP's GEMMs from 91.4 to 129.9 GFLOP/s
// with the AVX-512 kernel and from 72.1 to 78.1 with the AVX2 one, the CNN's from 91.0 to 121.4
// and 70.5 to 78.8, with the same bits.

inline int imin(int a, int b) { return a < b ? a : b; }

constexpr int kW = Isa::kW;
constexpr int kNr = Isa::kNr;
constexpr int kTileRows = Isa::kMv * kW;
static_assert(hermes::nn::detail::kGemmMc % kTileRows == 0, "row blocks hold whole tiles");

using hermes::nn::detail::GemmCall;
using hermes::nn::detail::kGemmKcBlock;
using hermes::nn::detail::kGemmMc;

// Height of the packed panel for `rows` rows: whole vectors, at most kMv of them.
inline int panel_height(int rows) { return imin(Isa::kMv, (rows + kW - 1) / kW) * kW; }

// Rows [i0, i0 + mc) and k in [p0, p0 + kc) of op(A), as panels of panel_height() rows; in a
// panel of height h, element (r, p) sits at p * h + r. Rows past the end are zeros.
void pack_a(const GemmCall& g, int i0, int mc, int p0, int kc, float* dst) {
  for (int r0 = 0; r0 < mc; r0 += kTileRows) {
    const int rows = imin(kTileRows, mc - r0);
    const int h = panel_height(rows);
    if (!g.trans_a) {
      for (int p = 0; p < kc; ++p) {
        const float* src = g.a + (i0 + r0) + static_cast<long>(p0 + p) * g.lda;
        float* d = dst + static_cast<long>(p) * h;
        int r = 0;
        for (; r < rows; ++r) d[r] = src[r];
        for (; r < h; ++r) d[r] = 0.0f;
      }
    } else {
      for (int r = 0; r < h; ++r) {
        float* d = dst + r;
        if (r < rows) {
          const float* src = g.a + p0 + static_cast<long>(i0 + r0 + r) * g.lda;
          for (int p = 0; p < kc; ++p) d[static_cast<long>(p) * h] = src[p];
        } else {
          for (int p = 0; p < kc; ++p) d[static_cast<long>(p) * h] = 0.0f;
        }
      }
    }
    dst += static_cast<long>(kc) * h;
  }
}

// Where a register tile reads its operands over one k-block. A: the tile's vectors of rows at
// `a`, those of the next k `a_step` floats further on (a packed panel: its height; A itself:
// lda). B: element (p, j) of the tile's columns at b + p * b_step + j * b_col (op(B) read in
// place: b_step 1 and b_col ldb, or b_step ldb and b_col 1 when transposed). Where the operands
// come from changes no product and no order of the sums.
struct Operands {
  const float* a;
  long a_step;
  const float* b;
  long b_step;
  long b_col;
};

// The k-loop of a register tile. In a sanitizer build it is left unchecked: with every load
// checked, a sanitizer run of the churn tests spent 85% of its time in the tiles and took 4 times
// as long. `tile` checks instead, before calling it, the first and the last float it reads of
// each operand; the tile's stores into C, after this loop, stay checked. It is a function of its
// own there (unchecked code is never inlined into checked code); elsewhere it inlines as any
// other.
#if defined(__SANITIZE_ADDRESS__)
#define HERMES_PANEL_LOOP __attribute__((no_sanitize("address", "undefined"), noinline))
#else
#define HERMES_PANEL_LOOP inline
#endif

// acc = the products of the MV x kW rows and the NR columns of `o` over kc.
template <int MV, int NR>
HERMES_PANEL_LOOP void panel_products(int kc, const Operands& o, typename Isa::V (&acc)[MV][NR]) {
#pragma GCC unroll 8
  for (int j = 0; j < NR; ++j) {
#pragma GCC unroll 4
    for (int v = 0; v < MV; ++v) acc[v][j] = Isa::zero();
  }
  const float* b_cols[NR];
#pragma GCC unroll 8
  for (int j = 0; j < NR; ++j) b_cols[j] = o.b + j * o.b_col;
  const float* ap = o.a;
  long bp = 0;
  for (int p = 0; p < kc; ++p, ap += o.a_step, bp += o.b_step) {
    typename Isa::V av[MV];
#pragma GCC unroll 4
    for (int v = 0; v < MV; ++v) av[v] = Isa::loadu(ap + v * kW);
#pragma GCC unroll 8
    for (int j = 0; j < NR; ++j) {
      const typename Isa::V bj = Isa::bcast(b_cols[j] + bp);
#pragma GCC unroll 4
      for (int v = 0; v < MV; ++v) acc[v][j] = Isa::fmadd(av[v], bj, acc[v][j]);
    }
  }
}
#undef HERMES_PANEL_LOOP

// One register tile: MV vectors of rows x NR columns over one k-block. `rows` x `cols` of it are
// real; `overwrite` says whether this k-block is the first of a product that replaces C.
template <int MV, int NR>
void tile(int kc, const Operands& o, float* c, int ldc, int rows, int cols, bool overwrite) {
#if defined(__SANITIZE_ADDRESS__)
  // What panel_products reads lies between these floats, and it does not check its own reads.
  const long last = kc - 1;
  volatile float touched = o.a[0] + o.a[last * o.a_step + MV * kW - 1] + o.b[0] +
                           o.b[last * o.b_step + (NR - 1) * o.b_col];
  (void)touched;
#endif
  typename Isa::V acc[MV][NR];
  panel_products<MV, NR>(kc, o, acc);
  if (rows == MV * kW && cols == NR) {
#pragma GCC unroll 8
    for (int j = 0; j < NR; ++j) {
#pragma GCC unroll 4
      for (int v = 0; v < MV; ++v) {
        float* d = c + static_cast<long>(j) * ldc + v * kW;
        Isa::storeu(d, overwrite ? acc[v][j] : Isa::add(Isa::loadu(d), acc[v][j]));
      }
    }
    return;
  }
  // Rows past the end of C (a packed panel's zero padding): the sums go through memory, then the
  // real elements are added one by one (a scalar float add rounds like a vector lane's).
  alignas(64) float t[MV * kW * NR];
  for (int j = 0; j < NR; ++j) {
    for (int v = 0; v < MV; ++v) Isa::store(t + (j * MV + v) * kW, acc[v][j]);
  }
  for (int j = 0; j < cols; ++j) {
    float* d = c + static_cast<long>(j) * ldc;
    const float* s = t + j * MV * kW;
    for (int r = 0; r < rows; ++r) d[r] = overwrite ? s[r] : d[r] + s[r];
  }
}

// tile<mv, cols> for run-time mv in [1, kMv] and cols in [1, kNr]: a tile of fewer columns reads
// only those.
template <int MV, int NR = kNr>
void tile_cols(int cols, int kc, const Operands& o, float* c, int ldc, int rows, bool overwrite) {
  if constexpr (NR > 1) {
    if (cols < NR) {
      tile_cols<MV, NR - 1>(cols, kc, o, c, ldc, rows, overwrite);
      return;
    }
  }
  tile<MV, NR>(kc, o, c, ldc, rows, cols, overwrite);
}

template <int MV = Isa::kMv>
void tile_any(int mv, int cols, int kc, const Operands& o, float* c, int ldc, int rows,
              bool overwrite) {
  if constexpr (MV > 1) {
    if (mv < MV) {
      tile_any<MV - 1>(mv, cols, kc, o, c, ldc, rows, overwrite);
      return;
    }
  }
  tile_cols<MV>(cols, kc, o, c, ldc, rows, overwrite);
}

// The loops: k-blocks in order (the order of the sums), then blocks of kGemmMc rows, then tiles
// of kNr columns, then tiles of kTileRows rows. op(B) is always read in place: a tile's columns
// are broadcast one element at a time, so no layout is faster to read than B's own. op(A) is read
// in place when its rows are contiguous (not transposed) and the row block is whole vectors;
// otherwise the row block is packed (transposed, or zero-padded to whole vectors).
void gemm_blocked(const GemmCall& g, float* pack_a_buf) {
  if (g.m <= 0 || g.n <= 0) return;
  if (g.k <= 0) {
    if (g.accumulate) return;
    for (int j = 0; j < g.n; ++j) {
      for (int i = 0; i < g.m; ++i) g.c[i + static_cast<long>(j) * g.ldc] = 0.0f;
    }
    return;
  }
  const long b_step = g.trans_b ? g.ldb : 1;
  const long b_col = g.trans_b ? 1 : g.ldb;
  for (int p0 = 0; p0 < g.k; p0 += kGemmKcBlock) {
    const int kc = imin(kGemmKcBlock, g.k - p0);
    const bool overwrite = p0 == 0 && !g.accumulate;
    for (int i0 = 0; i0 < g.m; i0 += kGemmMc) {
      const int mc = imin(kGemmMc, g.m - i0);
      const bool a_in_place = !g.trans_a && mc % kW == 0;
      if (!a_in_place) pack_a(g, i0, mc, p0, kc, pack_a_buf);
      for (int c0 = 0; c0 < g.n; c0 += kNr) {
        const int cols = imin(kNr, g.n - c0);
        const float* b = g.b + (c0 * b_col + p0 * b_step);
        const float* packed = pack_a_buf;
        for (int r0 = 0; r0 < mc; r0 += kTileRows) {
          const int rows = imin(kTileRows, mc - r0);
          const int h = panel_height(rows);
          const Operands o = a_in_place ? Operands{g.a + (i0 + r0) + static_cast<long>(p0) * g.lda,
                                                   g.lda, b, b_step, b_col}
                                        : Operands{packed, h, b, b_step, b_col};
          float* cp = g.c + (i0 + r0) + static_cast<long>(c0) * g.ldc;
          tile_any(h / kW, cols, kc, o, cp, g.ldc, rows, overwrite);
          packed += static_cast<long>(kc) * h;
        }
      }
    }
  }
}
