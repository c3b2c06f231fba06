set terminal pngcairo size 1500,700 font 'Sans,11' noenhanced
set output 'tradeoff_ar1_n64.png'
$tre_att << EOD
2.672640e+05 7.053078e-04 exact
EOD
$tre_co_re << EOD
1.343700e+04 7.053078e-04 exact
EOD
$tre_ny << EOD
1.972800e+04 9.224884e-02 2
4.102400e+04 2.320462e-02 4
1.036800e+05 1.024355e-02 8
3.737600e+05 8.423165e-03 16
2.009088e+06 7.476535e-03 32
1.378918e+07 7.053078e-03 64
EOD
$tre_ny_fix << EOD
1.612800e+04 4.306406e-01 2
3.430400e+04 7.348890e-01 4
7.372800e+04 5.139104e-01 8
1.648640e+05 3.244386e-01 16
3.962880e+05 2.781489e-01 32
1.055744e+06 1.929219e-01 64
EOD
$tre_cony_re_cont << EOD
3.713594e+03 1.467517e-01 2
8.692438e+03 5.036610e-02 4
2.192088e+04 1.491478e-02 8
9.440975e+04 9.115714e-03 16
9.290275e+05 7.492437e-03 32
1.327164e+07 7.053078e-03 64
EOD
$tre_cony_re_fix << EOD
3.376000e+03 4.306406e-01 2
7.792000e+03 7.348890e-01 4
1.667200e+04 5.139104e-01 8
3.462400e+04 3.244386e-01 16
7.129600e+04 2.781489e-01 32
1.477120e+05 1.929219e-01 64
EOD
$tre_rf << EOD
1.910200e+04 4.689045e-01 2
3.622000e+04 3.278019e-01 4
7.045600e+04 3.127187e-01 8
1.389280e+05 3.169242e-01 16
2.758720e+05 2.778921e-01 32
5.497600e+05 1.913919e-01 64
1.097536e+06 1.575826e-01 128
2.193088e+06 1.327508e-01 256
EOD
$tre_corf_re << EOD
4.649000e+03 4.689045e-01 2
9.267000e+03 3.278019e-01 4
1.850300e+04 3.127187e-01 8
3.697500e+04 3.169242e-01 16
7.391900e+04 2.778921e-01 32
1.478070e+05 1.913919e-01 64
2.955830e+05 1.575826e-01 128
5.911350e+05 1.327508e-01 256
EOD
$front_re << EOD
3.376000e+03 4.306406e-01
3.713594e+03 1.467517e-01
8.692438e+03 5.036610e-02
1.343700e+04 7.053078e-04
EOD
$tsi_co_si << EOD
4.176000e+03 1.002596e-03 exact
EOD
$tsi_cony_si_cont << EOD
5.754375e+02 2.837237e-01 2
1.313625e+03 1.098055e-01 4
5.399250e+03 3.454411e-02 8
5.431050e+04 1.731449e-02 16
7.994370e+05 1.232743e-02 32
1.262438e+07 1.002596e-02 64
EOD
$tsi_cony_si_fix << EOD
3.220000e+02 2.681759e-01 2
6.760000e+02 7.663380e-01 4
1.432000e+03 6.324673e-01 8
3.136000e+03 2.233418e-01 16
7.312000e+03 1.935599e-01 32
1.873600e+04 1.359499e-01 64
EOD
$tsi_corf_si << EOD
3.650000e+02 3.617615e-01 2
6.990000e+02 3.205485e-01 4
1.367000e+03 3.688571e-01 8
2.703000e+03 3.064390e-01 16
5.375000e+03 2.866460e-01 32
1.071900e+04 2.124785e-01 64
2.140700e+04 1.804355e-01 128
4.278300e+04 1.236594e-01 256
EOD
$front_si << EOD
3.220000e+02 2.681759e-01
1.313625e+03 1.098055e-01
4.176000e+03 1.002596e-03
EOD
set multiplot layout 1,2 title 'cost vs accuracy, stream ar1, n = 64, d = 16, one head (labels: m; dashed: Pareto front)'
set logscale xy
set grid
set key below font ',9'
set xlabel 'executed FLOPs per step (FLOPs, measure())'
set ylabel '95th percentile relative error per step (unitless)'
set format y '%.0e'
set format x '%.0e'
set title 'whole window (n x d output)'
set yrange [2.351e-04:3.674e+00]
set arrow 1 from graph 0, first 7.053e-04 to graph 1, first 7.053e-04 nohead dt 3 lc rgb '#888888'
set label 1 'exact variants (rounding error only; not to scale)' at graph 0.02, first 1.128e-03 font ',8'
plot $tre_att using 1:2 with points pt 5 ps 1.4 lc rgb '#000000' title 'att (exact: p95 error 4e-16)', $tre_att using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#000000' notitle, $tre_co_re using 1:2 with points pt 5 ps 1.4 lc rgb '#0072b2' title 'co_re (exact: p95 error 1e-15)', $tre_co_re using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#0072b2' notitle, $tre_ny using 1:2 with points pt 7 ps 1.4 lc rgb '#e69f00' title 'ny', $tre_ny using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#e69f00' notitle, $tre_ny_fix using 1:2 with points pt 7 ps 1.4 lc rgb '#56b4e9' title 'ny_fix', $tre_ny_fix using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#56b4e9' notitle, $tre_cony_re_cont using 1:2 with points pt 7 ps 1.4 lc rgb '#cc79a7' title 'cony_re_cont', $tre_cony_re_cont using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#cc79a7' notitle, $tre_cony_re_fix using 1:2 with points pt 7 ps 1.4 lc rgb '#882255' title 'cony_re_fix', $tre_cony_re_fix using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#882255' notitle, $tre_rf using 1:2 with points pt 7 ps 1.4 lc rgb '#44aa99' title 'rf', $tre_rf using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#44aa99' notitle, $tre_corf_re using 1:2 with points pt 7 ps 1.4 lc rgb '#aa4499' title 'corf_re', $tre_corf_re using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#aa4499' notitle, $front_re using 1:2 with linespoints dt 2 lw 1.5 pt 6 ps 2.6 lc rgb '#000000' title 'Pareto front'
set autoscale y
unset arrow 1
unset label 1
set title 'newest query only (1 x d output)'
set yrange [3.342e-04:3.832e+00]
set arrow 1 from graph 0, first 1.003e-03 to graph 1, first 1.003e-03 nohead dt 3 lc rgb '#888888'
set label 1 'exact variants (rounding error only; not to scale)' at graph 0.02, first 1.604e-03 font ',8'
plot $tsi_co_si using 1:2 with points pt 5 ps 1.4 lc rgb '#009e73' title 'co_si (exact: p95 error 6e-16)', $tsi_co_si using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#009e73' notitle, $tsi_cony_si_cont using 1:2 with points pt 7 ps 1.4 lc rgb '#d55e00' title 'cony_si_cont', $tsi_cony_si_cont using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#d55e00' notitle, $tsi_cony_si_fix using 1:2 with points pt 7 ps 1.4 lc rgb '#999933' title 'cony_si_fix', $tsi_cony_si_fix using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#999933' notitle, $tsi_corf_si using 1:2 with points pt 7 ps 1.4 lc rgb '#117733' title 'corf_si', $tsi_corf_si using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#117733' notitle, $front_si using 1:2 with linespoints dt 2 lw 1.5 pt 6 ps 2.6 lc rgb '#000000' title 'Pareto front'
set autoscale y
unset arrow 1
unset label 1
unset multiplot
