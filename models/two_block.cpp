#include "models/two_block.hpp"

#include "attention/registry.hpp"

namespace cosda {

template <class E>
std::unique_ptr<Attention<E>> make_two_block(const VariantTraits& traits,
                                             std::unique_ptr<Attention<E>> first, const Config& c) {
  return std::make_unique<TwoBlock<E>>(traits, std::move(first), c);
}

#define COSDA_INSTANTIATE(E)                                \
  template class TwoBlock<E>;                               \
  template std::unique_ptr<Attention<E>> make_two_block<E>( \
      const VariantTraits&, std::unique_ptr<Attention<E>>, const Config&);
COSDA_POLICIES(COSDA_INSTANTIATE)
#undef COSDA_INSTANTIATE
}  // namespace cosda
