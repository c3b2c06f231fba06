// The look-ups of published.hpp over the transcription, what is derived from it (CoTrans column
// sums, cycle-averaged Appendix A cost), Tables III and IV settings and the convention notes.
#include <algorithm>

#include "analysis/published.hpp"
#include "analysis/published_data.hpp"
#include "attention/registry.hpp"

namespace cosda::published {
namespace {

template <class T>
const T* find(const std::vector<data::Keyed<T>>& table, std::string_view id) {
  auto it = std::find_if(table.begin(), table.end(), [&](const auto& e) { return e.id == id; });
  return it == table.end() ? nullptr : &it->value;
}

// The Appendix A or B entry of the item that describes `id`.
const Published* item(const std::vector<Published>& items, std::string_view id) {
  const std::span<const std::string_view> ids = data::appendix_ids();
  const auto it = std::find(ids.begin(), ids.end(), id);
  return it == ids.end() ? nullptr : &items[std::size_t(it - ids.begin())];
}

constexpr TableSetting kSettings[] = {
    {kTable3, 120, 192, 4, 16,
     "Sec. V-C: 120 tokens per track, token dimensionality d = 192, 16 heads; every "
     "Nystrom-based model uses m = 4 landmarks."},
    {kTable4, 64, 0, 16, 0,
     "Sec. V-D: clips of 64 video frames, every Nystrom-based model uses m = 16 landmarks; "
     "the paper states neither d nor the number of heads."},
};

}  // namespace

const Published* flops(std::string_view id) { return item(data::appendix_a(), id); }
const Published* valley(std::string_view id) { return item(data::appendix_b_valley(), id); }
const Published* peak(std::string_view id) { return item(data::appendix_b_peak(), id); }
const Orders* table1(std::string_view id) { return find(data::table1(), id); }

Poly total_flops(const MulAddExp& c) { return c.mul + c.add + c.exp; }

std::span<const TableRow> cotrans_rows(std::string_view id) {
  const std::vector<TableRow>* rows = find(data::cotrans_rows(), id);
  if (rows == nullptr) return {};
  return *rows;
}
const MulAddExp* cotrans_text(std::string_view id) { return find(data::cotrans_text(), id); }

std::span<const TableSetting> table_settings() { return kSettings; }

std::optional<double> amortized_flops(std::string_view id, double n, double d, double m) {
  const Published* update = flops(id);
  const VariantTraits* v = find_variant(id);
  if (update == nullptr || v == nullptr) return std::nullopt;
  const double up = update->total.eval(n, d, m);
  if (v->landmarks != LandmarkKind::kContinual) return up;
  const VariantTraits* fixed = fixed_landmarks_of(*v);
  const Published* plain = fixed == nullptr ? nullptr : flops(fixed->id);
  if (plain == nullptr) return std::nullopt;
  return (m * up + (n - m) * plain->total.eval(n, d, m)) / n;
}

}  // namespace cosda::published
