// Threads for one search at a time: the vertices of a BFS layer depend only
// on earlier layers, so helpers may take chunks of every large layer. Every
// vertex is computed by the same code from the same inputs whoever runs it:
// results never depend on the thread count or on who took which chunk.
//
// The calling thread never waits for a helper that is not working: it takes
// chunks itself from the same counter and only waits, at the end of a layer,
// for chunks a helper has already started. A helper that is descheduled (a
// machine shared with other jobs) therefore costs at most one chunk, not a
// whole layer as with fixed slices and barriers. Idle helpers spin briefly,
// then sleep until the next layer is published.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace psssp::routing {

class LayerTeam {
 public:
  using Work = std::function<void(std::uint32_t begin, std::uint32_t end)>;
  // Serial step after each layer [begin, end); previous: the layer before.
  using AfterLayer =
      std::function<void(std::uint32_t previous, std::uint32_t begin, std::uint32_t end)>;

  explicit LayerTeam(unsigned threads);
  ~LayerTeam();
  LayerTeam(const LayerTeam&) = delete;
  LayerTeam& operator=(const LayerTeam&) = delete;

  unsigned size() const { return threads_; }
  // Runs work over BFS positions [1, reached) layer by layer (hops[order[i]]
  // is nondecreasing), and after_layer (if set) on the calling thread after
  // each layer but the last; returns when all of it is done.
  void run_layers(const std::uint16_t* hops, const std::uint16_t* order, std::uint32_t reached,
                  const Work& work, const AfterLayer& after_layer);

 private:
  // ticket_: job serial (24 bits) | chunk count (16 bits) | next chunk (24 bits).
  static std::uint64_t ticket(std::uint64_t serial, std::uint64_t chunks, std::uint64_t next) {
    return (serial & 0xFFFFFFu) << 40 | chunks << 24 | next;
  }
  static std::uint32_t chunks_of(std::uint64_t t) {
    return static_cast<std::uint32_t>(t >> 24 & 0xFFFFu);
  }
  static std::uint32_t next_of(std::uint64_t t) {
    return static_cast<std::uint32_t>(t & 0xFFFFFFu);
  }

  void parallel_layer(const Work& work, std::uint32_t begin, std::uint32_t end);
  // Takes and runs one chunk of the current layer; false if none is left.
  bool run_one_chunk();
  void helper();

  // Layers smaller than this run on the calling thread alone.
  static constexpr std::uint32_t kMinParallelLayer = 64;
  // Chunks per thread and layer: small enough that a descheduled helper
  // holds little work, large enough to amortise the atomic operations.
  static constexpr std::uint32_t kChunksPerThread = 8;
  static constexpr std::uint32_t kMinChunk = 16;

  unsigned threads_;
  std::vector<std::thread> helpers_;
  // The published layer; written by the caller before the ticket is stored
  // and stable until every chunk is done.
  std::atomic<const Work*> work_{nullptr};
  std::atomic<std::uint32_t> begin_{0}, end_{0}, chunk_{1};
  std::atomic<std::uint64_t> ticket_{0};
  std::atomic<std::uint32_t> done_{0};
  std::uint64_t serial_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<unsigned> sleepers_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
};

}  // namespace psssp::routing
