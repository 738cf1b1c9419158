// A fixed table of the live objects of one kind (CUDA arrays, texture objects, surface objects):
// host threads create and destroy them while lanes look them up, with no lock. A texture's or a
// surface's handle is its slot (slot 0 is never used, as handle 0 is no object); an array's
// handle is its own address, and the table only says whether it is live.
#pragma once

namespace warpsim::shim {

template <class T, unsigned N = 4096>
struct ObjectSlots {
  static constexpr unsigned kSlots = N;
  T* slots[N];  // zero-initialised: a namespace-scope variable

  // The first free slot from `first` on now holds `object`: its index, or kSlots when all are
  // taken.
  unsigned claim(T* object, unsigned first) {
    for (unsigned i = first; i < N; ++i) {
      T* empty = nullptr;
      if (__atomic_compare_exchange_n(&slots[i], &empty, object, false, __ATOMIC_ACQ_REL,
                                      __ATOMIC_ACQUIRE)) {
        return i;
      }
    }
    return N;
  }
  // The object at `handle`, or null (no such slot, or empty).
  T* at(unsigned long long handle) const {
    return handle > 0 && handle < N ? __atomic_load_n(&slots[handle], __ATOMIC_ACQUIRE) : nullptr;
  }
  // The object at `handle`, its slot emptied; null when there was none.
  T* take(unsigned long long handle) {
    return handle > 0 && handle < N ? __atomic_exchange_n(&slots[handle], nullptr, __ATOMIC_ACQ_REL)
                                    : nullptr;
  }
  bool holds(const T* object) const {
    if (object == nullptr) return false;
    for (unsigned i = 0; i < N; ++i)
      if (__atomic_load_n(&slots[i], __ATOMIC_ACQUIRE) == object) return true;
    return false;
  }
  // Empties the slot that holds `object`; false when none did.
  bool remove(T* object) {
    for (unsigned i = 0; i < N; ++i) {
      T* expected = object;
      if (__atomic_compare_exchange_n(&slots[i], &expected, nullptr, false, __ATOMIC_ACQ_REL,
                                      __ATOMIC_ACQUIRE)) {
        return true;
      }
    }
    return false;
  }
};

}  // namespace warpsim::shim
