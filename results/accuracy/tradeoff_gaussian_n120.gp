set terminal pngcairo size 1500,700 font 'Sans,11' noenhanced
set output 'tradeoff_gaussian_n120.png'
$tre_att << EOD
9.379200e+05 3.088959e-02 exact
EOD
$tre_co_re << EOD
2.530900e+04 3.088959e-02 exact
EOD
$tre_ny << EOD
3.652800e+04 9.414598e-01 2
7.372800e+04 9.252013e-01 4
1.708800e+05 8.813169e-01 8
5.207040e+05 7.359396e-01 16
2.358528e+06 4.746482e-01 32
1.471565e+07 3.102289e-01 64
EOD
$tre_ny_fix << EOD
3.024000e+04 1.189232e+00 2
6.432000e+04 1.406787e+00 4
1.382400e+05 1.108523e+00 8
3.091200e+05 6.357449e-01 16
7.430400e+05 4.601288e-01 32
1.979520e+06 4.356004e-01 64
EOD
$tre_cony_re_cont << EOD
6.397117e+03 9.442087e-01 2
1.487277e+04 9.285896e-01 4
3.390447e+04 8.690986e-01 8
9.911667e+04 7.248010e-01 16
6.177779e+05 4.550918e-01 32
7.509564e+06 3.088959e-01 64
EOD
$tre_cony_re_fix << EOD
6.064000e+03 1.189232e+00 2
1.406400e+04 1.406787e+00 4
3.011200e+04 1.108523e+00 8
6.240000e+04 6.357449e-01 16
1.277440e+05 4.601288e-01 32
2.615040e+05 4.356004e-01 64
EOD
$tre_rf << EOD
3.584600e+04 1.484882e+00 2
6.797200e+04 1.418596e+00 4
1.322240e+05 1.224747e+00 8
2.607280e+05 1.125747e+00 16
5.177360e+05 1.106468e+00 32
1.031752e+06 1.001514e+00 64
2.059784e+06 9.195251e-01 128
4.115848e+06 8.352393e-01 256
EOD
$tre_corf_re << EOD
8.457000e+03 1.484882e+00 2
1.688300e+04 1.418596e+00 4
3.373500e+04 1.224747e+00 8
6.743900e+04 1.125747e+00 16
1.348470e+05 1.106468e+00 32
2.696630e+05 1.001514e+00 64
5.392950e+05 9.195251e-01 128
1.078559e+06 8.352393e-01 256
EOD
$front_re << EOD
6.064000e+03 1.189232e+00
6.397117e+03 9.442087e-01
1.487277e+04 9.285896e-01
2.530900e+04 3.088959e-02
EOD
$tsi_co_si << EOD
7.816000e+03 4.258836e-02 exact
EOD
$tsi_cony_si_cont << EOD
5.701000e+02 1.094281e+00 2
1.219533e+03 1.077428e+00 4
3.932400e+03 1.088688e+00 8
3.117573e+04 9.616798e-01 16
4.312496e+05 6.418896e-01 32
6.744665e+06 4.258836e-01 64
EOD
$tsi_cony_si_fix << EOD
3.220000e+02 1.684384e+00 2
6.760000e+02 2.238180e+00 4
1.432000e+03 1.716991e+00 8
3.136000e+03 8.654478e-01 16
7.312000e+03 6.279775e-01 32
1.873600e+04 5.904491e-01 64
EOD
$tsi_corf_si << EOD
3.650000e+02 2.154285e+00 2
6.990000e+02 2.037780e+00 4
1.367000e+03 1.816270e+00 8
2.703000e+03 1.631619e+00 16
5.375000e+03 1.794473e+00 32
1.071900e+04 1.492694e+00 64
2.140700e+04 1.451346e+00 128
4.278300e+04 1.460014e+00 256
EOD
$front_si << EOD
3.220000e+02 1.684384e+00
5.701000e+02 1.094281e+00
1.219533e+03 1.077428e+00
3.136000e+03 8.654478e-01
7.312000e+03 6.279775e-01
7.816000e+03 4.258836e-02
EOD
set multiplot layout 1,2 title 'cost vs accuracy, stream gaussian, n = 120, d = 16, one head (labels: m; dashed: Pareto front)'
set logscale xy
set grid
set key below font ',9'
set xlabel 'executed FLOPs per step (FLOPs, measure())'
set ylabel '95th percentile relative error per step (unitless)'
set format y '%.0e'
set format x '%.0e'
set title 'whole window (n x d output)'
set yrange [1.030e-02:7.424e+00]
set arrow 1 from graph 0, first 3.089e-02 to graph 1, first 3.089e-02 nohead dt 3 lc rgb '#888888'
set label 1 'exact variants (rounding error only; not to scale)' at graph 0.02, first 4.942e-02 font ',8'
plot $tre_att using 1:2 with points pt 5 ps 1.4 lc rgb '#000000' title 'att (exact: p95 error 6e-16)', $tre_att using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#000000' notitle, $tre_co_re using 1:2 with points pt 5 ps 1.4 lc rgb '#0072b2' title 'co_re (exact: p95 error 9e-16)', $tre_co_re using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#0072b2' notitle, $tre_ny using 1:2 with points pt 7 ps 1.4 lc rgb '#e69f00' title 'ny', $tre_ny using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#e69f00' notitle, $tre_ny_fix using 1:2 with points pt 7 ps 1.4 lc rgb '#56b4e9' title 'ny_fix', $tre_ny_fix using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#56b4e9' notitle, $tre_cony_re_cont using 1:2 with points pt 7 ps 1.4 lc rgb '#cc79a7' title 'cony_re_cont', $tre_cony_re_cont using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#cc79a7' notitle, $tre_cony_re_fix using 1:2 with points pt 7 ps 1.4 lc rgb '#882255' title 'cony_re_fix', $tre_cony_re_fix using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#882255' notitle, $tre_rf using 1:2 with points pt 7 ps 1.4 lc rgb '#44aa99' title 'rf', $tre_rf using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#44aa99' notitle, $tre_corf_re using 1:2 with points pt 7 ps 1.4 lc rgb '#aa4499' title 'corf_re', $tre_corf_re using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#aa4499' notitle, $front_re using 1:2 with linespoints dt 2 lw 1.5 pt 6 ps 2.6 lc rgb '#000000' title 'Pareto front'
set autoscale y
unset arrow 1
unset label 1
set title 'newest query only (1 x d output)'
set yrange [1.420e-02:1.119e+01]
set arrow 1 from graph 0, first 4.259e-02 to graph 1, first 4.259e-02 nohead dt 3 lc rgb '#888888'
set label 1 'exact variants (rounding error only; not to scale)' at graph 0.02, first 6.814e-02 font ',8'
plot $tsi_co_si using 1:2 with points pt 5 ps 1.4 lc rgb '#009e73' title 'co_si (exact: p95 error 8e-16)', $tsi_co_si using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#009e73' notitle, $tsi_cony_si_cont using 1:2 with points pt 7 ps 1.4 lc rgb '#d55e00' title 'cony_si_cont', $tsi_cony_si_cont using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#d55e00' notitle, $tsi_cony_si_fix using 1:2 with points pt 7 ps 1.4 lc rgb '#999933' title 'cony_si_fix', $tsi_cony_si_fix using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#999933' notitle, $tsi_corf_si using 1:2 with points pt 7 ps 1.4 lc rgb '#117733' title 'corf_si', $tsi_corf_si using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#117733' notitle, $front_si using 1:2 with linespoints dt 2 lw 1.5 pt 6 ps 2.6 lc rgb '#000000' title 'Pareto front'
set autoscale y
unset arrow 1
unset label 1
unset multiplot
