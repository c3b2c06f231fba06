// Transcription of the Nyström paper's Appendices A and B in item order 1)-9) (published.cpp maps
// items to ids; contract in published.hpp). Monomials: {coef, power of n, d, m}; {3, 1, 1} is 3nd.
#include "analysis/published_data.hpp"

namespace cosda::published::data {
namespace {

// Bullets shared by several entries; functions, so the tables avoid static initialization order.
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

// ---- Appendix A: operations per step ----

// Items 1)-5).
std::vector<Published> flops_1_to_5() {
  return {
      {"Nystrom paper, Appendix A, 1) Base Transformer",
       {{2, 2, 1}, {1, 2}, {1, 1, 1}, {1, 1}},
       {
           {"nd from normalizing the matrix Q", {{1, 1, 1}}},
           {"n^2 d to perform the multiplication QK^T/sqrt(d)", {{1, 2, 1}}},
           {"n^2 + n to perform the softmax activation", {{1, 2}, {1, 1}}},
           {"n^2 d to multiply the resulting matrix s(QK^T/sqrt(d)) against V", {{1, 2, 1}}},
       },
       "2n^2d + n^2 + nd + n"},
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
       "4ndm + 2nd + n + nm^2 + 2nm + dm^2 + 24m^3 + 22m^2 + 2m"},
      {"Nystrom paper, Appendix A, 3) Nystromformer with fixed landmarks",
       {{4, 1, 1, 1}, {1, 1, 0, 2}, {2, 1, 0, 1}, {1, 1}, {1, 0, 0, 1}},
       {ny_outer_softmaxes(), ny_three_products()},
       "4ndm + nm^2 + 2nm + n + m"},
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
       "7nd + 4n - 2d - 2"},
      {"Nystrom paper, Appendix A, 5) Continual Single Output Transformer",
       {{3, 1, 1}, {2, 1}},
       {
           {"nd + n from computing the matrix a = rho(q_new, K)", {{1, 1, 1}, {1, 1}}},
           {"nd from computing the matrix aV", {{1, 1, 1}}},
           {"n from computing the vector phi(a)", {{1, 1}}},
           {"nd from computing aV phi(a)^-1", {{1, 1, 1}}},
       },
       "3nd + 2n"},
  };
}

// Items 6)-7).
std::vector<Published> flops_6_to_7() {
  return {
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
       "ndm + 6dm + m^2 + 6m"},
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
       "7dm + m^2 + 6m"},
  };
}

// Items 8)-9).
std::vector<Published> flops_8_to_9() {
  return {
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
           {"nd + n + dm + m from updating Delta", {{1, 1, 1}, {1, 1}, {1, 0, 1, 1}, {1, 0, 0, 1}}},
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
       "ndm + 8nd + nm^2 + nm + 11n + 15dm + 2d + 24m^3 + 22m^2 + 22m"},
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
       "ndm + 3nd + n + 9dm + 2d + 24m^3 + 22m^2 + 13m"},
  };
}

// ---- Appendix B: valley memory ----

// Items 1)-5).
std::vector<Published> valley_1_to_5() {
  return {
      {"Nystrom paper, Appendix B, 1) Base Transformer, valley cost",
       {{3, 1, 1}, {-3}},
       {store_qkv_mem()},
       "3(nd - 1)"},
      {"Nystrom paper, Appendix B, 2) Nystromformer, valley cost",
       {{3, 1, 1}, {-3}},
       {store_qkv_mem()},
       "3(nd - 1)"},
      {"Nystrom paper, Appendix B, 3) Nystromformer with fixed landmarks, valley cost",
       {{3, 1, 1}, {-3}, {2, 0, 1, 1}, {1, 0, 0, 2}},
       {store_qkv_mem(), store_landmarks(), store_gamma_pinv()},
       "3(nd - 1) + 2dm + m^2"},
      {"Nystrom paper, Appendix B, 4) Continual Retroactive Transformers, valley cost",
       {{4, 1, 1}, {1, 1}, {-1, 0, 1}, {-4}},
       {
           store_qkv_mem(),
           {"n - 1 from storing the vector phi(A^_prev)", {{1, 1}, {-1}}},
           {"nd - d from storing the matrix A^V_prev", {{1, 1, 1}, {-1, 0, 1}}},
       },
       "4nd + n - d - 4"},
      {"Nystrom paper, Appendix B, 5) Continual Single Output Transformer, valley cost",
       {{2, 1, 1}, {-2}},
       {store_kv_mem()},
       "2(nd - 1)"},
  };
}

// Items 6)-9).
std::vector<Published> valley_6_to_9() {
  return {
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
       "nm + 3dm + m^2 + m"},
      {"Nystrom paper, Appendix B, 7) Continual Single Output Nystromformers with Fixed "
       "Landmarks, valley cost",
       {{3, 0, 1, 1}, {1, 0, 0, 2}, {1, 0, 0, 1}},
       {store_landmarks(), store_gamma_pinv(), store_phi_delta_inv(), store_delta_v()},
       "3dm + m^2 + m"},
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
       "3nd + 2nm + 4dm + 2m^2 - 2m - 6"},
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
       "2nd + 4dm + 2m^2 - 2"},
  };
}

// ---- Appendix B: peak memory ----

// Items 1)-5).
std::vector<Published> peak_1_to_5() {
  return {
      {"Nystrom paper, Appendix B, 1) Base Transformer, peak cost",
       {{1, 2}, {4, 1, 1}, {1}},
       {
           store_qkv(),
           {"n^2 from getting the matrix QK^T/sqrt(d)", {{1, 2}}},
           {"1 from performing the softmax operation", {{1}}},
           {"nd from storing the output matrix", {{1, 1, 1}}},
       },
       "n^2 + 4nd + 1"},
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
       "4nd + 2nm + 2dm + 1 + 6m^2 + m"},
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
       "4nd + 2nm + 2dm + 2m^2 + 1"},
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
       "5nd + 2n"},
      {"Nystrom paper, Appendix B, 5) Continual Single Output Transformer, peak cost",
       {{2, 1, 1}, {1, 1}, {2, 0, 1}},
       {
           {"2nd from storing the matrices K and V", {{2, 1, 1}}},
           {"d for storing q_new", {{1, 0, 1}}},
           {"n for storing rho(q_new, K)", {{1, 1}}},
           {"d to store the final result", {{1, 0, 1}}},
       },
       "2nd + n + 2d"},
  };
}

// Items 6)-9).
std::vector<Published> peak_6_to_9() {
  return {
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
       "nd + nm + 3dm + m^2 + 2m"},
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
       "3dm + d + m^2 + 2m"},
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
       "4nd + 3nm + 2n + 4dm + 7m^2 + 4m"},
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
       "2nd + nm + n + 4dm + d + 7m^2 + 4m"},
  };
}

std::vector<Published> joined(std::initializer_list<std::vector<Published>> parts) {
  std::vector<Published> all;
  for (const auto& p : parts) all.insert(all.end(), p.begin(), p.end());
  return all;
}

}  // namespace

const std::vector<Published>& appendix_a() {
  static const std::vector<Published> all =
      joined({flops_1_to_5(), flops_6_to_7(), flops_8_to_9()});
  return all;
}

const std::vector<Published>& appendix_b_valley() {
  static const std::vector<Published> all = joined({valley_1_to_5(), valley_6_to_9()});
  return all;
}

const std::vector<Published>& appendix_b_peak() {
  static const std::vector<Published> all = joined({peak_1_to_5(), peak_6_to_9()});
  return all;
}

}  // namespace cosda::published::data
