// The toolkit's cub, unmodified: block loads and stores (direct and through a warp transpose)
// and the cache-hinted ThreadLoad/ThreadStore, which cub writes as PTX inside macros
// (cub/thread/thread_load.cuh, thread_store.cuh). Runs with nvcc too (for a --gpu check).
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
#include <cub/iterator/cache_modified_input_iterator.cuh>
#include <cub/thread/thread_load.cuh>
#include <cub/thread/thread_store.cuh>

// A block of 128 threads, 4 items each over in[512]:
//   direct[i]     = in[i] + 1 (BLOCK_LOAD_DIRECT, through a LOAD_CG iterator; BLOCK_STORE_DIRECT)
//   transposed[i] = 2 * in[i] (BLOCK_LOAD_WARP_TRANSPOSE; BLOCK_STORE_WARP_TRANSPOSE)
// Thread t's ThreadLoad/ThreadStore of each width cub writes in PTX (hinted, 16 words a thread):
//   [0] ld.cg.u32, [1] ld.cs.u16, [2] ld.cv.u8, [4..5] ld.global.nc.u64, [8..11] ld.cg.v4.u32
//   (each stored back plus t with st.cs/st.wt/st.cg of the same width, at an address aligned to
//   its size, as a GPU needs), [12..15] st.wb.u32 of 7 - t.
__global__ void cub_load_store(const int* in, int* direct, int* transposed, unsigned* hinted) {
  constexpr int kItems = 4;
  using DirectLoad = cub::BlockLoad<int, 128, kItems, cub::BLOCK_LOAD_DIRECT>;
  using WarpLoad = cub::BlockLoad<int, 128, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using DirectStore = cub::BlockStore<int, 128, kItems, cub::BLOCK_STORE_DIRECT>;
  using WarpStore = cub::BlockStore<int, 128, kItems, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ typename WarpLoad::TempStorage load_storage;
  __shared__ typename WarpStore::TempStorage store_storage;

  int items[kItems];
  DirectLoad().Load(cub::CacheModifiedInputIterator<cub::LOAD_CG, int>(in), items);
  for (int& item : items) item += 1;
  DirectStore().Store(direct, items);

  WarpLoad(load_storage).Load(in, items);
  for (int& item : items) item *= 2;
  WarpStore(store_storage).Store(transposed, items);

  const unsigned t = threadIdx.x;
  unsigned* mine = hinted + 16 * t;
  const unsigned* source = reinterpret_cast<const unsigned*>(in) + 4 * t;  // in[4t..4t+3]
  const unsigned word = cub::ThreadLoad<cub::LOAD_CG>(source);
  cub::ThreadStore<cub::STORE_CS>(mine, word + t);
  const unsigned short half = cub::ThreadLoad<cub::LOAD_CS>(reinterpret_cast<const unsigned short*>(source));
  cub::ThreadStore<cub::STORE_WT>(reinterpret_cast<unsigned short*>(mine + 1),
                                  static_cast<unsigned short>(half + t));
  const unsigned char byte = cub::ThreadLoad<cub::LOAD_CV>(reinterpret_cast<const unsigned char*>(source));
  cub::ThreadStore<cub::STORE_CG>(reinterpret_cast<unsigned char*>(mine + 2),
                                  static_cast<unsigned char>(byte + t));
  const unsigned long long wide =
      cub::ThreadLoad<cub::LOAD_LDG>(reinterpret_cast<const unsigned long long*>(source));
  cub::ThreadStore<cub::STORE_CS>(reinterpret_cast<unsigned long long*>(mine + 4), wide + t);
  const uint4 vector = cub::ThreadLoad<cub::LOAD_CG>(reinterpret_cast<const uint4*>(source));
  cub::ThreadStore<cub::STORE_WT>(reinterpret_cast<uint4*>(mine + 8),
                                  make_uint4(vector.x + t, vector.y + t, vector.z + t, vector.w + t));
  for (int k = 12; k < 16; ++k) cub::ThreadStore<cub::STORE_WB>(mine + k, 7u - t);
}
