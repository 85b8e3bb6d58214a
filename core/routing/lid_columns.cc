// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "lid_columns.h"

#include <algorithm>

#include "parallel/run_workers.h"

namespace psssp::routing {
namespace {

constexpr std::size_t kBlock = 64;

// Calls copy(vertex, lid) for every vertex < n and lid < lids, block by block.
template <typename Copy>
void by_blocks(std::size_t n, std::size_t lids, unsigned threads, Copy copy) {
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  parallel::parallel_slices(blocks, threads, [&](std::size_t begin, std::size_t end, unsigned) {
    for (std::size_t v0 = begin * kBlock; v0 < std::min(n, end * kBlock); v0 += kBlock)
      for (std::size_t l0 = 0; l0 < lids; l0 += kBlock)
        for (std::size_t v = v0; v < std::min(n, v0 + kBlock); ++v)
          copy(v, l0, std::min(lids, l0 + kBlock));
  });
}

}  // namespace

// Here the inner loop runs along a column (64 switches' rows read a byte
// each, one column line written): with the rows' and columns' strides both
// near multiples of 1 KiB, a block's 64 column lines written one byte per
// switch fall into the same few L1 sets and miss there on every write (5x
// slower on a 32-ary 3-tree). The other way, tables_from_columns, is faster
// as by_blocks goes.
void columns_from_tables(const ForwardingTables& tables, const SwitchView& view,
                         std::vector<PortNum>& columns, unsigned threads) {
  const std::size_t n = view.node_of_vertex.size();
  if (n == 0) return;
  const std::size_t lids = std::min(tables.lid_count(), columns.size() / n);
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  parallel::parallel_slices(blocks, threads, [&](std::size_t begin, std::size_t end, unsigned) {
    const PortNum* rows[kBlock];
    for (std::size_t v0 = begin * kBlock; v0 < std::min(n, end * kBlock); v0 += kBlock) {
      const std::size_t v1 = std::min(n, v0 + kBlock);
      for (std::size_t v = v0; v < v1; ++v) {
        const NodeId sw = view.node_of_vertex[v];
        rows[v - v0] = tables.has_switch(sw) ? tables.row(sw) : nullptr;
      }
      for (std::size_t l0 = 0; l0 < lids; l0 += kBlock)
        for (std::size_t l = l0; l < std::min(lids, l0 + kBlock); ++l) {
          PortNum* col = &columns[l * n];
          for (std::size_t v = v0; v < v1; ++v)
            if (rows[v - v0]) col[v] = rows[v - v0][l];
        }
    }
  });
}

ForwardingTables tables_from_columns(const Fabric& fabric, const SwitchView& view,
                                     const std::vector<PortNum>& columns, unsigned threads) {
  ForwardingTables tables(fabric);
  const std::size_t n = view.node_of_vertex.size();
  if (n == 0) return tables;
  const std::size_t lids = std::min(tables.lid_count(), columns.size() / n);
  by_blocks(n, lids, threads, [&](std::size_t v, std::size_t l0, std::size_t l1) {
    PortNum* row = tables.row(view.node_of_vertex[v]);
    for (std::size_t l = l0; l < l1; ++l) row[l] = columns[l * n + v];
  });
  return tables;
}

}  // namespace psssp::routing
