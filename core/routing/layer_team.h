// Threads for one search at a time: the vertices of a BFS layer depend only
// on earlier layers, so a team splits every large layer in fixed slices and
// meets at a barrier before the next. Every vertex is computed by the same
// code from the same inputs whoever runs it: results never depend on the
// thread count.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
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
  // is nondecreasing), and after_layer (if set) on one thread after each
  // layer but the last; returns when all of it is done.
  void run_layers(const std::uint16_t* hops, const std::uint16_t* order, std::uint32_t reached,
                  const Work& work, const AfterLayer& after_layer);

 private:
  void worker(unsigned id);
  void execute(unsigned id);
  void barrier();
  void wait_for_workers();

  // Layers smaller than this run on the calling thread alone: a barrier
  // costs more than the work.
  static constexpr std::uint32_t kMinParallelLayer = 48;

  unsigned threads_;
  std::vector<std::thread> workers_;
  std::vector<std::uint32_t> bounds_;  // layer starts, then `reached`
  const Work* work_ = nullptr;
  const AfterLayer* after_ = nullptr;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<bool> stop_{false};
  std::atomic<unsigned> finished_{0};  // workers done with the current job
  bool published_ = false;
  std::atomic<unsigned> arrived_{0};
  std::atomic<std::uint64_t> barrier_round_{0};
};

}  // namespace psssp::routing
