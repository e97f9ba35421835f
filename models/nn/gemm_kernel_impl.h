// The blocked GEMM shared by the instruction-set kernels. Included ONLY by gemm_avx2.cc and
// gemm_avx512.cc, inside an anonymous namespace, after they define `struct Isa` (vector type,
// width kW, tile height in vectors kMv, tile width kNr, and the loads, stores, broadcast, add and
// fused multiply-add). Everything here thus has internal linkage and is compiled for that
// instruction set only.
//
// The loops follow the GotoBLAS scheme: a block of op(B) (kGemmKcBlock x kGemmNc) and a block of
// op(A) (kGemmMc x kGemmKcBlock) are packed into contiguous panels, zero-padded to whole tiles,
// and a register tile of C (kMv vectors x kNr columns) accumulates one k-block with fused
// multiply-adds before it is written to C. Each element of C therefore sees exactly the order
// gemm.h defines: a zero-started FMA chain per k-block, the blocks added to C in order. The tile
// shape, the padding and the vector width decide only which elements are computed together,
// never how one is computed.

inline int imin(int a, int b) { return a < b ? a : b; }

constexpr int kW = Isa::kW;
constexpr int kNr = Isa::kNr;
constexpr int kTileRows = Isa::kMv * kW;
static_assert(hermes::nn::detail::kGemmMc % kTileRows == 0, "row blocks hold whole tiles");

using hermes::nn::detail::GemmCall;
using hermes::nn::detail::kGemmKcBlock;
using hermes::nn::detail::kGemmMc;
using hermes::nn::detail::kGemmNc;

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

// Columns [j0, j0 + nc) and k in [p0, p0 + kc) of op(B), as panels of kNr columns; element
// (p, c) of a panel sits at p * kNr + c. Columns past the end are zeros.
void pack_b(const GemmCall& g, int j0, int nc, int p0, int kc, float* dst) {
  for (int c0 = 0; c0 < nc; c0 += kNr) {
    const int cols = imin(kNr, nc - c0);
    if (!g.trans_b) {
      for (int c = 0; c < kNr; ++c) {
        float* d = dst + c;
        if (c < cols) {
          const float* src = g.b + p0 + static_cast<long>(j0 + c0 + c) * g.ldb;
          for (int p = 0; p < kc; ++p) d[p * kNr] = src[p];
        } else {
          for (int p = 0; p < kc; ++p) d[p * kNr] = 0.0f;
        }
      }
    } else {
      for (int p = 0; p < kc; ++p) {
        const float* src = g.b + (j0 + c0) + static_cast<long>(p0 + p) * g.ldb;
        float* d = dst + p * kNr;
        int c = 0;
        for (; c < cols; ++c) d[c] = src[c];
        for (; c < kNr; ++c) d[c] = 0.0f;
      }
    }
    dst += static_cast<long>(kc) * kNr;
  }
}

// The k-loop of a register tile reads only the packed panels, and reads exactly what pack_a and
// pack_b wrote: in a sanitizer build those writes are checked, and this loop is not. With every
// panel load checked, a sanitizer run of the churn tests spent 85% of its time in the tiles and
// took 4 times as long; the tile's stores into C, after this loop, stay checked. It is a function
// of its own there (unchecked code is never inlined into checked code); elsewhere it inlines as
// any other.
#if defined(__SANITIZE_ADDRESS__)
#define HERMES_PANEL_LOOP __attribute__((no_sanitize("address", "undefined"), noinline))
#else
#define HERMES_PANEL_LOOP inline
#endif

// acc = the products of the MV x kW rows of panel `ap` and the NR columns of panel `bp` over kc.
template <int MV, int NR>
HERMES_PANEL_LOOP void panel_products(int kc, const float* ap, const float* bp,
                                      typename Isa::V (&acc)[MV][NR]) {
#pragma GCC unroll 8
  for (int j = 0; j < NR; ++j) {
#pragma GCC unroll 4
    for (int v = 0; v < MV; ++v) acc[v][j] = Isa::zero();
  }
  for (int p = 0; p < kc; ++p) {
    typename Isa::V av[MV];
#pragma GCC unroll 4
    for (int v = 0; v < MV; ++v) av[v] = Isa::load(ap + (p * MV + v) * kW);
#pragma GCC unroll 8
    for (int j = 0; j < NR; ++j) {
      const typename Isa::V bj = Isa::bcast(bp + p * kNr + j);
#pragma GCC unroll 4
      for (int v = 0; v < MV; ++v) acc[v][j] = Isa::fmadd(av[v], bj, acc[v][j]);
    }
  }
}

// One register tile: MV vectors of rows x NR columns over one k-block. `rows` x `cols` of it are
// real; `overwrite` says whether this k-block is the first of a product that replaces C.
template <int MV, int NR>
void tile(int kc, const float* ap, const float* bp, float* c, int ldc, int rows, int cols,
          bool overwrite) {
  typename Isa::V acc[MV][NR];
  panel_products<MV, NR>(kc, ap, bp, acc);
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
  // A partial tile: the sums go through memory, then the real elements are added one by one
  // (a scalar float add rounds like a vector lane's).
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

// tile<mv, cols> for run-time mv in [1, kMv] and cols in [1, kNr].
template <int MV, int NR = kNr>
void tile_cols(int cols, int kc, const float* ap, const float* bp, float* c, int ldc, int rows,
               bool overwrite) {
  if constexpr (NR > 1) {
    if (cols < NR) {
      tile_cols<MV, NR - 1>(cols, kc, ap, bp, c, ldc, rows, overwrite);
      return;
    }
  }
  tile<MV, NR>(kc, ap, bp, c, ldc, rows, cols, overwrite);
}

template <int MV = Isa::kMv>
void tile_any(int mv, int cols, int kc, const float* ap, const float* bp, float* c, int ldc,
              int rows, bool overwrite) {
  if constexpr (MV > 1) {
    if (mv < MV) {
      tile_any<MV - 1>(mv, cols, kc, ap, bp, c, ldc, rows, overwrite);
      return;
    }
  }
  tile_cols<MV>(cols, kc, ap, bp, c, ldc, rows, overwrite);
}

void gemm_blocked(const GemmCall& g, float* pack_a_buf, float* pack_b_buf) {
  if (g.m <= 0 || g.n <= 0) return;
  if (g.k <= 0) {
    if (g.accumulate) return;
    for (int j = 0; j < g.n; ++j) {
      for (int i = 0; i < g.m; ++i) g.c[i + static_cast<long>(j) * g.ldc] = 0.0f;
    }
    return;
  }
  for (int j0 = 0; j0 < g.n; j0 += kGemmNc) {
    const int nc = imin(kGemmNc, g.n - j0);
    for (int p0 = 0; p0 < g.k; p0 += kGemmKcBlock) {
      const int kc = imin(kGemmKcBlock, g.k - p0);
      const bool overwrite = p0 == 0 && !g.accumulate;
      pack_b(g, j0, nc, p0, kc, pack_b_buf);
      for (int i0 = 0; i0 < g.m; i0 += kGemmMc) {
        const int mc = imin(kGemmMc, g.m - i0);
        pack_a(g, i0, mc, p0, kc, pack_a_buf);
        for (int c0 = 0; c0 < nc; c0 += kNr) {
          const int cols = imin(kNr, nc - c0);
          const float* bp = pack_b_buf + static_cast<long>(c0) * kc;
          const float* ap = pack_a_buf;
          for (int r0 = 0; r0 < mc; r0 += kTileRows) {
            const int rows = imin(kTileRows, mc - r0);
            const int h = panel_height(rows);
            float* cp = g.c + (i0 + r0) + static_cast<long>(j0 + c0) * g.ldc;
            tile_any(h / kW, cols, kc, ap, bp, cp, g.ldc, rows, overwrite);
            ap += static_cast<long>(kc) * h;
          }
        }
      }
    }
  }
}
