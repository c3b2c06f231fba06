// Transcription of the published cost formulas; see published.hpp for the contract.
// Monomials are written {coef, power of n, power of d, power of m}; {3, 1, 1} is 3nd.
#include "analysis/published.hpp"

#include <algorithm>

namespace cosda::published {
namespace {

template <class T>
struct Keyed {
  std::string_view id;
  T value;
};

template <class T>
const T* find(const std::vector<Keyed<T>>& table, std::string_view id) {
  auto it = std::find_if(table.begin(), table.end(), [&](const auto& e) { return e.id == id; });
  return it == table.end() ? nullptr : &it->value;
}

// Bullets shared by several appendix entries (same wording, same cost). Functions rather
// than globals, so the tables below never depend on static initialization order.
Item store_qkv_mem() {
  return {"3(nd - 1) from storing the matrices Q_mem, K_mem and V_mem", {{3, 1, 1}, {-3}}};
}
Item store_kv_mem() {
  return {"2(nd - 1) from storing the matrices K_mem and V_mem", {{2, 1, 1}, {-2}}};
}
Item store_qkv() { return {"3nd from storing the matrices Q, K, V", {{3, 1, 1}}}; }
Item store_landmarks() {
  return {"2dm from storing the landmark matrices Q~ and K~", {{2, 0, 1, 1}}};
}
Item store_gamma_pinv() { return {"m^2 from storing the matrix (Gamma_phi)^+", {{1, 0, 0, 2}}}; }
Item store_phi_delta_inv() {
  return {"m from storing the cached vector phi(Delta)^-1", {{1, 0, 0, 1}}};
}
Item store_delta_v() { return {"dm from storing the matrix DeltaV", {{1, 0, 1, 1}}}; }
Item pinv_flops() {
  return {
      "24m^3 + 21m^2 from computing the Moore-Penrose pseudo-inverse with the iterative "
      "algorithm [38]",
      {{24, 0, 0, 3}, {21, 0, 0, 2}}};
}
Item ny_outer_softmaxes() {
  return {"2ndm + 2nm + n + m from computing s(Q K~^T/sqrt(d)) and s(Q~ K^T/sqrt(d))",
          {{2, 1, 1, 1}, {2, 1, 0, 1}, {1, 1}, {1, 0, 0, 1}}};
}
Item ny_three_products() {
  return {"nm^2 + 2ndm from multiplying the 3 low-rank matrices", {{1, 1, 0, 2}, {2, 1, 1, 1}}};
}

// ---------------------------------------------------------------------------------------
// Appendix A.

const std::vector<Keyed<Published>>& flops_table() {
  static const std::vector<Keyed<Published>> table = {
      {"att",
       {"Nystrom paper, Appendix A, 1) Base Transformer",
        {{2, 2, 1}, {1, 2}, {1, 1, 1}, {1, 1}},
        {
            {"nd from normalizing the matrix Q", {{1, 1, 1}}},
            {"n^2 d to perform the multiplication QK^T/sqrt(d)", {{1, 2, 1}}},
            {"n^2 + n to perform the softmax activation", {{1, 2}, {1, 1}}},
            {"n^2 d to multiply the resulting matrix s(QK^T/sqrt(d)) against V", {{1, 2, 1}}},
        },
        "2n^2d + n^2 + nd + n"}},
      {"ny",
       {"Nystrom paper, Appendix A, 2) Nystromformer",
        {{4, 1, 1, 1},
         {2, 1, 1},
         {1, 1},
         {1, 1, 0, 2},
         {2, 1, 0, 1},
         {1, 0, 1, 2},
         {24, 0, 0, 3},
         {22, 0, 0, 2},
         {2, 0, 0, 1}},
        {
            {"2nd from computing the landmark matrices Q~ and K~", {{2, 1, 1}}},
            ny_outer_softmaxes(),
            {"dm^2 + m^2 + m from computing the matrix s(Q~ K~^T/sqrt(d))",
             {{1, 0, 1, 2}, {1, 0, 0, 2}, {1, 0, 0, 1}}},
            pinv_flops(),
            ny_three_products(),
        },
        "4ndm + 2nd + n + nm^2 + 2nm + dm^2 + 24m^3 + 22m^2 + 2m"}},
      {"ny_fix",
       {"Nystrom paper, Appendix A, 3) Nystromformer with fixed landmarks",
        {{4, 1, 1, 1}, {1, 1, 0, 2}, {2, 1, 0, 1}, {1, 1}, {1, 0, 0, 1}},
        {ny_outer_softmaxes(), ny_three_products()},
        "4ndm + nm^2 + 2nm + n + m"}},
      {"co_re",
       {"Nystrom paper, Appendix A, 4) Continual Retroactive Transformers",
        {{7, 1, 1}, {4, 1}, {-2, 0, 1}, {-2}},
        {
            {"nd + n - 1 from computing rho(Q_mem, k_old) and rho(Q_mem, k_new)",
             {{1, 1, 1}, {1, 1}, {-1}}},
            {"nd + n from computing the matrix rho(q_new, K)", {{1, 1, 1}, {1, 1}}},
            {"n from computing the vector phi(A)_new", {{1, 1}}},
            {"nd from computing the vector AV_new", {{1, 1, 1}}},
            {"n - 1 from updating d_mem", {{1, 1}, {-1}}},
            {"3nd - 2d from updating AV_mem", {{3, 1, 1}, {-2, 0, 1}}},
            {"nd from computing phi(A)^-1 (.) AV", {{1, 1, 1}}},
        },
        "7nd + 4n - 2d - 2"}},
      {"co_si",
       {"Nystrom paper, Appendix A, 5) Continual Single Output Transformer",
        {{3, 1, 1}, {2, 1}},
        {
            {"nd + n from computing the matrix a = rho(q_new, K)", {{1, 1, 1}, {1, 1}}},
            {"nd from computing the matrix aV", {{1, 1, 1}}},
            {"n from computing the vector phi(a)", {{1, 1}}},
            {"nd from computing aV phi(a)^-1", {{1, 1, 1}}},
        },
        "3nd + 2n"}},
      {"cony_re_fix",
       {"Nystrom paper, Appendix A, 6) Continual Retroactive Nystromformers with Fixed "
        "Landmarks",
        {{1, 1, 1, 1}, {6, 0, 1, 1}, {1, 0, 0, 2}, {6, 0, 0, 1}},
        {
            {"dm + 3m from computing (beta_phi)_new", {{1, 0, 1, 1}, {3, 0, 0, 1}}},
            {"m^2 from computing (beta_phi)_new (Gamma_phi)^+", {{1, 0, 0, 2}}},
            {"2dm + 2m from computing rho(Q~, k_old) and rho(Q~, k_new)",
             {{2, 0, 1, 1}, {2, 0, 0, 1}}},
            {"m from updating phi(Delta)^-1", {{1, 0, 0, 1}}},
            {"3dm from updating DeltaV", {{3, 0, 1, 1}}},
            {"ndm to complete the attention computation", {{1, 1, 1, 1}}},
        },
        "ndm + 6dm + m^2 + 6m"}},
      {"cony_si_fix",
       {"Nystrom paper, Appendix A, 7) Continual Single Output Nystromformers with Fixed "
        "Landmarks",
        {{7, 0, 1, 1}, {1, 0, 0, 2}, {6, 0, 0, 1}},
        {
            {"dm + 3m from computing (beta_phi)_new", {{1, 0, 1, 1}, {3, 0, 0, 1}}},
            {"m^2 from computing (beta_phi)_new (Gamma_phi)^+", {{1, 0, 0, 2}}},
            {"2dm + 2m from computing rho(Q~, k_old) and rho(Q~, k_new)",
             {{2, 0, 1, 1}, {2, 0, 0, 1}}},
            {"m from updating phi(Delta)^-1", {{1, 0, 0, 1}}},
            {"3dm from updating DeltaV", {{3, 0, 1, 1}}},
            {"dm to complete the attention computation", {{1, 0, 1, 1}}},
        },
        "7dm + m^2 + 6m"}},
      {"cony_re_cont",
       {"Nystrom paper, Appendix A, 8) Continual Retroactive Nystromformers with Continual "
        "Landmarks",
        {{1, 1, 1, 1},
         {8, 1, 1},
         {1, 1, 0, 2},
         {1, 1, 0, 1},
         {11, 1},
         {15, 0, 1, 1},
         {2, 0, 1},
         {24, 0, 0, 3},
         {22, 0, 0, 2},
         {22, 0, 0, 1}},
        {
            {"dm + m from computing beta_new", {{1, 0, 1, 1}, {1, 0, 0, 1}}},
            {"nd + n from computing rho(Q_mem, k~_new^T)", {{1, 1, 1}, {1, 1}}},
            {"2d + m from updating Gamma", {{2, 0, 1}, {1, 0, 0, 1}}},
            {"nd + n + dm + m from updating Delta",
             {{1, 1, 1}, {1, 1}, {1, 0, 1, 1}, {1, 0, 0, 1}}},
            {"2nd + 4n + dm + 2m from updating phi(B)",
             {{2, 1, 1}, {4, 1}, {1, 0, 1, 1}, {2, 0, 0, 1}}},
            {"3dm + 6m from updating phi(Gamma)", {{3, 0, 1, 1}, {6, 0, 0, 1}}},
            {"nd + 2n + 2dm + 4m from updating phi(Delta)",
             {{1, 1, 1}, {2, 1}, {2, 0, 1, 1}, {4, 0, 0, 1}}},
            pinv_flops(),
            {"nm^2 + nm + m^2 from computing B_phi (Gamma_phi)^+",
             {{1, 1, 0, 2}, {1, 1, 0, 1}, {1, 0, 0, 2}}},
            {"4dm + 2m from computing rho(Q~, k_old) v_old and rho(Q~, k_new) v_new",
             {{4, 0, 1, 1}, {2, 0, 0, 1}}},
            {"nd + 2n + 2dm + 4m from computing phi(Delta)",
             {{1, 1, 1}, {2, 1}, {2, 0, 1, 1}, {4, 0, 0, 1}}},
            {"2nd + n from computing DeltaV", {{2, 1, 1}, {1, 1}}},
            {"dm + m from computing phi(Delta)^-1 (.) (DeltaV)", {{1, 0, 1, 1}, {1, 0, 0, 1}}},
            {"ndm to complete the attention multiplication", {{1, 1, 1, 1}}},
        },
        "ndm + 8nd + nm^2 + nm + 11n + 15dm + 2d + 24m^3 + 22m^2 + 22m"}},
      {"cony_si_cont",
       {"Nystrom paper, Appendix A, 9) Continual Single Output Nystromformers with Continual "
        "Landmarks",
        {{1, 1, 1, 1},
         {3, 1, 1},
         {1, 1},
         {9, 0, 1, 1},
         {2, 0, 1},
         {24, 0, 0, 3},
         {22, 0, 0, 2},
         {13, 0, 0, 1}},
        {
            pinv_flops(),
            {"2d + m from updating (Gamma_phi)^+", {{2, 0, 1}, {1, 0, 0, 1}}},
            {"2dm + m^2 + 3m from computing the updated (beta_phi)_new (Gamma_phi)^+",
             {{2, 0, 1, 1}, {1, 0, 0, 2}, {3, 0, 0, 1}}},
            {"3nd + n + 7dm + 9m from updating DeltaV",
             {{3, 1, 1}, {1, 1}, {7, 0, 1, 1}, {9, 0, 0, 1}}},
            {"ndm to complete the attention multiplication", {{1, 1, 1, 1}}},
        },
        "ndm + 3nd + n + 9dm + 2d + 24m^3 + 22m^2 + 13m"}},
  };
  return table;
}

// ---------------------------------------------------------------------------------------
// Appendix B, valley cost.

const std::vector<Keyed<Published>>& valley_table() {
  static const std::vector<Keyed<Published>> table = {
      {"att",
       {"Nystrom paper, Appendix B, 1) Base Transformer, valley cost",
        {{3, 1, 1}, {-3}},
        {store_qkv_mem()},
        "3(nd - 1)"}},
      {"ny",
       {"Nystrom paper, Appendix B, 2) Nystromformer, valley cost",
        {{3, 1, 1}, {-3}},
        {store_qkv_mem()},
        "3(nd - 1)"}},
      {"ny_fix",
       {"Nystrom paper, Appendix B, 3) Nystromformer with fixed landmarks, valley cost",
        {{3, 1, 1}, {-3}, {2, 0, 1, 1}, {1, 0, 0, 2}},
        {store_qkv_mem(), store_landmarks(), store_gamma_pinv()},
        "3(nd - 1) + 2dm + m^2"}},
      {"co_re",
       {"Nystrom paper, Appendix B, 4) Continual Retroactive Transformers, valley cost",
        {{4, 1, 1}, {1, 1}, {-1, 0, 1}, {-4}},
        {
            store_qkv_mem(),
            {"n - 1 from storing the vector phi(A^_prev)", {{1, 1}, {-1}}},
            {"nd - d from storing the matrix A^V_prev", {{1, 1, 1}, {-1, 0, 1}}},
        },
        "4nd + n - d - 4"}},
      {"co_si",
       {"Nystrom paper, Appendix B, 5) Continual Single Output Transformer, valley cost",
        {{2, 1, 1}, {-2}},
        {store_kv_mem()},
        "2(nd - 1)"}},
      {"cony_re_fix",
       {"Nystrom paper, Appendix B, 6) Continual Retroactive Nystromformers with Fixed "
        "Landmarks, valley cost",
        {{1, 1, 0, 1}, {3, 0, 1, 1}, {1, 0, 0, 2}, {1, 0, 0, 1}},
        {
            store_landmarks(),
            {"nm - m from storing the matrix (B_phi (Gamma_phi)^+)_mem",
             {{1, 1, 0, 1}, {-1, 0, 0, 1}}},
            store_gamma_pinv(),
            store_phi_delta_inv(),
            store_delta_v(),
        },
        "nm + 3dm + m^2 + m"}},
      {"cony_si_fix",
       {"Nystrom paper, Appendix B, 7) Continual Single Output Nystromformers with Fixed "
        "Landmarks, valley cost",
        {{3, 0, 1, 1}, {1, 0, 0, 2}, {1, 0, 0, 1}},
        {store_landmarks(), store_gamma_pinv(), store_phi_delta_inv(), store_delta_v()},
        "3dm + m^2 + m"}},
      {"cony_re_cont",
       {"Nystrom paper, Appendix B, 8) Continual Retroactive Nystromformers with Continual "
        "Landmarks, valley cost",
        {{3, 1, 1}, {2, 1, 0, 1}, {4, 0, 1, 1}, {2, 0, 0, 2}, {-2, 0, 0, 1}, {-6}},
        {
            store_qkv_mem(),
            store_landmarks(),
            {"nm - m from storing the matrix (B_phi (Gamma_phi)^+)_mem",
             {{1, 1, 0, 1}, {-1, 0, 0, 1}}},
            store_gamma_pinv(),
            store_phi_delta_inv(),
            store_delta_v(),
            {"n - 1 + 2(m - 1) for storing phi(B^)_prev, phi(Gamma^)_prev and phi(Delta^)_prev",
             {{1, 1}, {2, 0, 0, 1}, {-3}}},
            {"nm - n - m from storing B_prev", {{1, 1, 0, 1}, {-1, 1}, {-1, 0, 0, 1}}},
            {"m^2 - 2m from storing Gamma_prev", {{1, 0, 0, 2}, {-2, 0, 0, 1}}},
            {"dm - m from storing (DeltaV)_prev", {{1, 0, 1, 1}, {-1, 0, 0, 1}}},
        },
        "3nd + 2nm + 4dm + 2m^2 - 2m - 6"}},
      {"cony_si_cont",
       {"Nystrom paper, Appendix B, 9) Continual Single Output Nystromformers with Continual "
        "Landmarks, valley cost",
        {{2, 1, 1}, {4, 0, 1, 1}, {2, 0, 0, 2}, {-2}},
        {
            store_kv_mem(),
            store_landmarks(),
            store_gamma_pinv(),
            store_phi_delta_inv(),
            store_delta_v(),
            {"2(m - 1) for storing phi(Gamma^)_prev and phi(Delta^)_prev", {{2, 0, 0, 1}, {-2}}},
            {"m^2 - 2m from storing Gamma_prev", {{1, 0, 0, 2}, {-2, 0, 0, 1}}},
            {"dm - m from storing (DeltaV)_prev", {{1, 0, 1, 1}, {-1, 0, 0, 1}}},
        },
        "2nd + 4dm + 2m^2 - 2"}},
  };
  return table;
}

// ---------------------------------------------------------------------------------------
// Appendix B, peak cost.

const std::vector<Keyed<Published>>& peak_table() {
  static const std::vector<Keyed<Published>> table = {
      {"att",
       {"Nystrom paper, Appendix B, 1) Base Transformer, peak cost",
        {{1, 2}, {4, 1, 1}, {1}},
        {
            store_qkv(),
            {"n^2 from getting the matrix QK^T/sqrt(d)", {{1, 2}}},
            {"1 from performing the softmax operation", {{1}}},
            {"nd from storing the output matrix", {{1, 1, 1}}},
        },
        "n^2 + 4nd + 1"}},
      {"ny",
       {"Nystrom paper, Appendix B, 2) Nystromformer, peak cost",
        {{4, 1, 1}, {2, 1, 0, 1}, {2, 0, 1, 1}, {1}, {6, 0, 0, 2}, {1, 0, 0, 1}},
        {
            store_qkv(),
            store_landmarks(),
            {"nm + 1 from storing the matrix s(Q K~^T/sqrt(d))", {{1, 1, 0, 1}, {1}}},
            {"m^2 from storing the matrix s(Q~ K~^T/sqrt(d)) (the +1 of the previous softmax "
             "is reused)",
             {{1, 0, 0, 2}}},
            {"5m^2 + m from computing the Moore-Penrose pseudo-inverse intermediate results",
             {{5, 0, 0, 2}, {1, 0, 0, 1}}},
            {"nm from storing the matrix s(Q~ K^T/sqrt(d))", {{1, 1, 0, 1}}},
            {"nd to compute the intermediate and final results", {{1, 1, 1}}},
        },
        "4nd + 2nm + 2dm + 1 + 6m^2 + m"}},
      {"ny_fix",
       {"Nystrom paper, Appendix B, 3) Nystromformer with fixed landmarks, peak cost",
        {{4, 1, 1}, {2, 1, 0, 1}, {2, 0, 1, 1}, {2, 0, 0, 2}, {1}},
        {
            store_qkv(),
            store_landmarks(),
            store_gamma_pinv(),
            {"nm + 1 from storing the matrix s(Q K~^T/sqrt(d))", {{1, 1, 0, 1}, {1}}},
            {"nm from storing the matrix s(Q~ K^T/sqrt(d))", {{1, 1, 0, 1}}},
            {"nd to compute the intermediate and final results", {{1, 1, 1}}},
        },
        "4nd + 2nm + 2dm + 2m^2 + 1"}},
      {"co_re",
       {"Nystrom paper, Appendix B, 4) Continual Retroactive Transformers, peak cost",
        {{5, 1, 1}, {2, 1}},
        {
            store_qkv(),
            {"n from storing the vector phi(A)", {{1, 1}}},
            {"nd from storing the matrix AV", {{1, 1, 1}}},
            {"n from storing the result of rho(Q_mem, k_old) (also used for rho(Q_mem, k_new) "
             "and rho(q_new, K))",
             {{1, 1}}},
            {"nd to store the final result", {{1, 1, 1}}},
        },
        "5nd + 2n"}},
      {"co_si",
       {"Nystrom paper, Appendix B, 5) Continual Single Output Transformer, peak cost",
        {{2, 1, 1}, {1, 1}, {2, 0, 1}},
        {
            {"2nd from storing the matrices K and V", {{2, 1, 1}}},
            {"d for storing q_new", {{1, 0, 1}}},
            {"n for storing rho(q_new, K)", {{1, 1}}},
            {"d to store the final result", {{1, 0, 1}}},
        },
        "2nd + n + 2d"}},
      {"cony_re_fix",
       {"Nystrom paper, Appendix B, 6) Continual Retroactive Nystromformers with Fixed "
        "Landmarks, peak cost",
        {{1, 1, 1}, {1, 1, 0, 1}, {3, 0, 1, 1}, {1, 0, 0, 2}, {2, 0, 0, 1}},
        {
            store_landmarks(),
            {"nm from storing the matrix (B_phi (Gamma_phi)^+)", {{1, 1, 0, 1}}},
            store_gamma_pinv(),
            store_phi_delta_inv(),
            store_delta_v(),
            {"m to store rho(Q~, k_old)", {{1, 0, 0, 1}}},
            {"nd to store the final result", {{1, 1, 1}}},
        },
        "nd + nm + 3dm + m^2 + 2m"}},
      {"cony_si_fix",
       {"Nystrom paper, Appendix B, 7) Continual Single Output Nystromformers with Fixed "
        "Landmarks, peak cost",
        {{3, 0, 1, 1}, {1, 0, 1}, {1, 0, 0, 2}, {2, 0, 0, 1}},
        {
            store_landmarks(),
            store_gamma_pinv(),
            store_phi_delta_inv(),
            store_delta_v(),
            // Printed "phi(Q~, k_old)"; the retroactive entry 6) has rho(Q~, k_old) here.
            {"m to store phi(Q~, k_old) and (beta_phi (Gamma_phi)^+)_new", {{1, 0, 0, 1}}},
            {"d to store the final result", {{1, 0, 1}}},
        },
        "3dm + d + m^2 + 2m"}},
      {"cony_re_cont",
       {"Nystrom paper, Appendix B, 8) Continual Retroactive Nystromformers with Continual "
        "Landmarks, peak cost",
        {{4, 1, 1}, {3, 1, 0, 1}, {2, 1}, {4, 0, 1, 1}, {7, 0, 0, 2}, {4, 0, 0, 1}},
        {
            {"3nd from storing the matrices Q, K and V", {{3, 1, 1}}},
            store_landmarks(),
            {"nm from storing the matrix B_phi (Gamma_phi)^+", {{1, 1, 0, 1}}},
            store_gamma_pinv(),
            store_phi_delta_inv(),
            store_delta_v(),
            {"n + 2m for storing phi(B^), phi(Gamma^) and phi(Delta^)", {{1, 1}, {2, 0, 0, 1}}},
            {"nm from storing B", {{1, 1, 0, 1}}},
            {"m^2 from storing Gamma", {{1, 0, 0, 2}}},
            {"dm from storing (DeltaV)", {{1, 0, 1, 1}}},
            {"n + m from 2 auxiliary vectors during computation", {{1, 1}, {1, 0, 0, 1}}},
            {"5m^2 from the Moore-Penrose pseudo-inverse", {{5, 0, 0, 2}}},
            {"nm to store the intermediate result Delta_phi V", {{1, 1, 0, 1}}},
            {"nd to store the final computation", {{1, 1, 1}}},
        },
        "4nd + 3nm + 2n + 4dm + 7m^2 + 4m"}},
      {"cony_si_cont",
       {"Nystrom paper, Appendix B, 9) Continual Single Output Nystromformers with Continual "
        "Landmarks, peak cost",
        {{2, 1, 1}, {1, 1, 0, 1}, {1, 1}, {4, 0, 1, 1}, {1, 0, 1}, {7, 0, 0, 2}, {4, 0, 0, 1}},
        {
            {"2nd from storing the matrices K and V", {{2, 1, 1}}},
            {"d from storing the vector q_new", {{1, 0, 1}}},
            store_landmarks(),
            store_gamma_pinv(),
            store_phi_delta_inv(),
            store_delta_v(),
            {"2m for storing phi(Gamma^) and phi(Delta^)", {{2, 0, 0, 1}}},
            {"m^2 from storing Gamma", {{1, 0, 0, 2}}},
            {"dm from storing (DeltaV)", {{1, 0, 1, 1}}},
            {"n + m from 2 auxiliary vectors during computation", {{1, 1}, {1, 0, 0, 1}}},
            {"5m^2 from the Moore-Penrose pseudo-inverse", {{5, 0, 0, 2}}},
            {"nm to store the intermediate result Delta_phi V", {{1, 1, 0, 1}}},
        },
        "2nd + nm + n + 4dm + d + 7m^2 + 4m"}},
  };
  return table;
}

// ---------------------------------------------------------------------------------------
// Table I.

const std::vector<Keyed<Orders>>& table1_table() {
  static const std::vector<Keyed<Orders>> table = [] {
    const Poly nd{{1, 1, 1}};
    const Poly ndm{{1, 1, 1, 1}};
    const Poly nm{{1, 1, 0, 1}};
    const Poly dm{{1, 0, 1, 1}};
    const Poly nm2{{1, 1, 0, 2}};
    const Poly m2{{1, 0, 0, 2}};
    const Poly m3{{1, 0, 0, 3}};
    return std::vector<Keyed<Orders>>{
        {"att", {Poly{{1, 2, 1}}, nd, Poly{{1, 2}} + nd}},
        {"ny", {ndm + nm2 + m3, nd, nd + nm + m2}},
        {"ny_fix", {ndm + nm2, nd + m2, nd + nm + m2}},
        {"co_si", {nd, nd, nd}},
        {"co_re", {nd, nd, nd}},
        {"cony_si_cont", {ndm + m3, nd + m2, nd + m2}},
        {"cony_re_cont", {ndm + nm2 + m3, nd + m2, nd + nm + m2}},
        {"cony_si_fix", {dm + m2, dm + m2, dm + m2}},
        {"cony_re_fix", {ndm + m2, nm + m2, nd + nm + m2}},
    };
  }();
  return table;
}

// ---------------------------------------------------------------------------------------
// CoTrans paper.

const std::vector<Keyed<std::vector<TableRow>>>& cotrans_rows_table() {
  static const std::vector<Keyed<std::vector<TableRow>>> table = {
      {"att",
       {
           // Mul n^2d + nd | Add nd(n - 1) | Exp 0
           {"Table 5, Eq. (1.1)", {{{1, 2, 1}, {1, 1, 1}}, {{1, 2, 1}, {-1, 1, 1}}, {}}},
           // Mul n^2d + nd | Add n^2(d - 1) | Exp n^2
           {"Table 5, Eq. (1.2)", {{{1, 2, 1}, {1, 1, 1}}, {{1, 2, 1}, {-1, 2}}, {{1, 2}}}},
           // Mul 0 | Add n(n - 1) | Exp 0
           {"Table 5, Eq. (1.3)", {{}, {{1, 2}, {-1, 1}}, {}}},
       }},
      {"co_re",
       {
           // Mul 2(n - 1)d | Add 2(n - 2)d + 2(n - 1) | Exp 2(n - 1)
           {"Table 6, Eq. (2)",
            {{{2, 1, 1}, {-2, 0, 1}}, {{2, 1, 1}, {-4, 0, 1}, {2, 1}, {-2}}, {{2, 1}, {-2}}}},
           // Mul nd + n + d | Add nd + (n - 1) + d | Exp n
           {"Table 6, Eq. (3)",
            {{{1, 1, 1}, {1, 1}, {1, 0, 1}}, {{1, 1, 1}, {1, 1}, {-1}, {1, 0, 1}}, {{1, 1}}}},
           // Mul 2(n - 1)d | Add 2(n - 1)d | Exp 0
           {"Table 6, Eq. (4)", {{{2, 1, 1}, {-2, 0, 1}}, {{2, 1, 1}, {-2, 0, 1}}, {}}},
           // Mul nd | Add (n - 1)d | Exp 0
           {"Table 6, Eq. (5)", {{{1, 1, 1}}, {{1, 1, 1}, {-1, 0, 1}}, {}}},
           // Mul nd + n | Add 0 | Exp 0
           {"Table 6, Eq. (6)", {{{1, 1, 1}, {1, 1}}, {}, {}}},
       }},
      {"co_si",
       {
           // Mul nd + d | Add (n - 1)d + n - 1 | Exp 0
           {"Table 7, Eq. (7.1)",
            {{{1, 1, 1}, {1, 0, 1}}, {{1, 1, 1}, {-1, 0, 1}, {1, 1}, {-1}}, {}}},
           // Mul nd + d | Add n(d - 1) | Exp n
           {"Table 7, Eq. (7.2)", {{{1, 1, 1}, {1, 0, 1}}, {{1, 1, 1}, {-1, 1}}, {{1, 1}}}},
       }},
  };
  return table;
}

const std::vector<Keyed<MulAddExp>>& cotrans_table_sums() {
  static const std::vector<Keyed<MulAddExp>> table = [] {
    std::vector<Keyed<MulAddExp>> sums;
    for (const auto& [id, rows] : cotrans_rows_table()) {
      MulAddExp s;
      for (const TableRow& r : rows) {
        s.mul = s.mul + r.cost.mul;
        s.add = s.add + r.cost.add;
        s.exp = s.exp + r.cost.exp;
      }
      sums.push_back({id, s});
    }
    return sums;
  }();
  return table;
}

const std::vector<Keyed<MulAddExp>>& cotrans_text_table() {
  static const std::vector<Keyed<MulAddExp>> table = {
      // Sec. 3.1: 2n^2d + 2nd multiplications, 2n^2d - nd - n additions, n^2 exponentiations.
      {"att", {{{2, 2, 1}, {2, 1, 1}}, {{2, 2, 1}, {-1, 1, 1}, {-1, 1}}, {{1, 2}}}},
      // Sec. 3.2: 7nd + 2n - 3d multiplications, 6nd + 3n - 6d - 3 additions, 3n - 2 exp.
      {"co_re",
       {{{7, 1, 1}, {2, 1}, {-3, 0, 1}}, {{6, 1, 1}, {3, 1}, {-6, 0, 1}, {-3}}, {{3, 1}, {-2}}}},
      // Sec. 3.3: 2nd + 2d multiplications, 2nd - d - 1 additions, n exponentials.
      {"co_si", {{{2, 1, 1}, {2, 0, 1}}, {{2, 1, 1}, {-1, 0, 1}, {-1}}, {{1, 1}}}},
  };
  return table;
}

constexpr QuotedRatio kRatios[] = {
    {"CoTrans paper, Sec. 3.4: Continual Retroactive SDA reduces FLOPs by 31x when n = d = 100",
     "att", "co_re", 100, 100, 31},
    {"CoTrans paper, Sec. 3.4: Continual Retroactive SDA reduces FLOPs by 308x when "
     "n = d = 1000",
     "att", "co_re", 1000, 1000, 308},
    {"CoTrans paper, Sec. 3.4: Continual Single-Output SDA reduces FLOPs by 100x (n = d = 100)",
     "att", "co_si", 100, 100, 100},
    {"CoTrans paper, Sec. 3.4: Continual Single-Output SDA reduces FLOPs by 1000x "
     "(n = d = 1000)",
     "att", "co_si", 1000, 1000, 1000},
};

constexpr PrintedCell kCells[] = {
    // Table III, GTZAN: FLOPs (M) and Rel. FLOPs.
    {kTable3, "Att", "att", 1, 5.57, 1, 2, 0},
    {kTable3, "Att", "att", 2, 11.13, 1, 2, 0},
    {kTable3, "Att_Co", "co_si", 1, 0.07, 80.26, 2, 2},
    {kTable3, "Att_Co", "co_si", 2, 0.39, 48.26, 2, 2},
    {kTable3, "Att_Ny-4", "ny", 1, 0.42, 13.17, 2, 2},
    {kTable3, "Att_Ny-4", "ny", 2, 0.85, 13.17, 2, 2},
    {kTable3, "Att_Ny^Fix-4", "ny_fix", 1, 0.37, 14.98, 2, 2},
    {kTable3, "Att_Ny^Fix-4", "ny_fix", 2, 0.74, 14.98, 2, 2},
    {kTable3, "Att_CoNy^Cont-4", "cony_si_cont", 1, 0.01, 509.66, 2, 2},
    {kTable3, "Att_CoNy^Cont-4", "cony_si_cont", 2, 0.11, 102.57, 2, 2},
    {kTable3, "Att_CoNy^Fix-4", "cony_si_fix", 1, 0.005, 1028, 3, 0},
    {kTable3, "Att_CoNy^Fix-4", "cony_si_fix", 2, 0.10, 108.92, 2, 2},
    // Table IV, THUMOS14: FLOPs (M) and Rel. FLOPs.
    {kTable4, "Att", "att", 1, 8.46, 1, 2, 0},
    {kTable4, "Att", "att", 2, 16.92, 1, 2, 0},
    {kTable4, "Att_Co", "co_si", 1, 0.20, 42.99, 2, 2},
    {kTable4, "Att_Co", "co_si", 2, 0.65, 25.88, 2, 2},
    {kTable4, "Att_Ny-16", "ny", 1, 4.71, 1.80, 2, 2},
    {kTable4, "Att_Ny-16", "ny", 2, 9.42, 1.80, 2, 2},
    {kTable4, "Att_Ny^Fix-16", "ny_fix", 1, 4.21, 2.01, 2, 2},
    {kTable4, "Att_Ny^Fix-16", "ny_fix", 2, 8.43, 2.01, 2, 2},
    {kTable4, "Att_CoNy^Cont-16", "cony_si_cont", 1, 0.46, 18.35, 2, 2},
    {kTable4, "Att_CoNy^Cont-16", "cony_si_cont", 2, 1.43, 11.84, 2, 2},
    {kTable4, "Att_CoNy^Fix-16", "cony_si_fix", 1, 0.12, 73.52, 2, 2},
    {kTable4, "Att_CoNy^Fix-16", "cony_si_fix", 2, 1.26, 13.40, 2, 2},
};

constexpr TableSetting kSettings[] = {
    {kTable3, 120, 192, 4, 16,
     "Sec. V-C: 120 tokens per track, token dimensionality d = 192, 16 heads; every "
     "Nystrom-based model uses m = 4 landmarks."},
    {kTable4, 64, 0, 16, 0,
     "Sec. V-D: clips of 64 video frames, every Nystrom-based model uses m = 16 landmarks; "
     "the paper states neither d nor the number of heads."},
};

constexpr std::string_view kNystromNote =
    "Appendix A mostly counts one operation per multiply-accumulate: a length-d dot product "
    "costs d, not 2d - 1 (A.1 charges n^2 d for QK^T/sqrt(d) and n^2 d for s(.)V, A.5 charges "
    "nd for aV), so its totals are roughly half the CoTrans FLOPs of the same layer (A.1: "
    "2n^2d + n^2 + nd + n; CoTrans mul + add + exp: 4n^2d + n^2 + nd - n). Each exponential "
    "counts as one operation (A.5: nd + n for a = rho(q_new, K)), while reductions and "
    "normalisations are counted loosely: the A.1 softmax is n^2 + n with no n(n - 1) row-sum "
    "additions, and A.5 charges the n-term sum phi(a) as n but the scaling of the 1 x d vector "
    "aV by phi(a)^-1 as nd. The convention is not applied uniformly: A.4 charges nd + n - 1 "
    "for rho(Q_mem, k_old) and rho(Q_mem, k_new), two products worth 2(n - 1)d "
    "multiply-accumulates, and the 1/sqrt(d) scaling is itemised only in A.1 (nd for "
    "normalizing Q). Appendix B counts stored scalar values, transient ones included at the "
    "peak.";

constexpr std::string_view kCoTransNote =
    "Tables 5-7 count multiplications, additions and exponentials separately, and a length-d "
    "dot product costs d multiplications plus d - 1 additions (2d - 1 operations; Table 5 "
    "Eq. (1.2) charges n^2 d mul and n^2(d - 1) add for QK^T). The 1/sqrt(d) scaling is "
    "charged as one multiplication per query element (the nd in Eq. (1.2)), the softmax "
    "normalisation D^-1 is an element-wise multiplication with no separate reciprocal, and "
    "every exp counts one. The FLOPs of Sec. 3.4 are mul + add + exp: that count reproduces "
    "the quoted 31x, 308x, 100x and 1000x. The rows of Tables 5, 6 and 7 sum exactly to the "
    "totals quoted in Sec. 3.1, 3.2 and 3.3, so table and text agree.";

}  // namespace

const Published* flops(std::string_view id) { return find(flops_table(), id); }
const Published* valley(std::string_view id) { return find(valley_table(), id); }
const Published* peak(std::string_view id) { return find(peak_table(), id); }
const Orders* table1(std::string_view id) { return find(table1_table(), id); }

Poly total_flops(const MulAddExp& c) { return c.mul + c.add + c.exp; }

std::span<const TableRow> cotrans_rows(std::string_view id) {
  const std::vector<TableRow>* rows = find(cotrans_rows_table(), id);
  if (rows == nullptr) return {};
  return *rows;
}
const MulAddExp* cotrans_table(std::string_view id) { return find(cotrans_table_sums(), id); }
const MulAddExp* cotrans_text(std::string_view id) { return find(cotrans_text_table(), id); }

std::span<const QuotedRatio> cotrans_ratios() { return kRatios; }

std::span<const QuotedMemory> cotrans_memory() {
  static const std::vector<QuotedMemory> memory = {
      {"CoTrans paper, Sec. 3.1",
       "att",
       "constant-sized cache of the n - 1 latest tokens in Q, K and V: 3(n - 1)d",
       {{3, 1, 1}, {-3, 0, 1}}},
      {"CoTrans paper, Sec. 3.1",
       "att",
       "memory penalty of caching QK^T directly instead (not used): (n - 1)^2",
       {{1, 2}, {-2, 1}, {1}}},
  };
  return memory;
}

std::span<const TableSetting> table_settings() { return kSettings; }
std::span<const PrintedCell> printed_cells() { return kCells; }

std::string_view convention_note(std::string_view paper) {
  if (paper == "nystrom") return kNystromNote;
  if (paper == "cotrans") return kCoTransNote;
  return {};
}

}  // namespace cosda::published
