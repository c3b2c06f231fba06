set terminal pngcairo size 1500,700 font 'Sans,11' noenhanced
set output 'tradeoff_ar1_n120.png'
$tre_att << EOD
9.379200e+05 9.333991e-04 exact
EOD
$tre_co_re << EOD
2.530900e+04 9.333991e-04 exact
EOD
$tre_ny << EOD
3.652800e+04 2.512280e-01 2
7.372800e+04 3.839434e-02 4
1.708800e+05 1.588043e-02 8
5.207040e+05 1.279138e-02 16
2.358528e+06 1.068833e-02 32
1.471565e+07 9.333991e-03 64
EOD
$tre_ny_fix << EOD
3.024000e+04 5.504493e-01 2
6.432000e+04 8.383534e-01 4
1.382400e+05 6.142579e-01 8
3.091200e+05 3.382834e-01 16
7.430400e+05 3.080600e-01 32
1.979520e+06 2.367671e-01 64
EOD
$tre_cony_re_cont << EOD
6.397117e+03 2.193338e-01 2
1.487277e+04 8.319123e-02 4
3.390447e+04 2.578079e-02 8
9.911667e+04 1.629562e-02 16
6.177779e+05 1.303480e-02 32
7.509564e+06 1.047601e-02 64
EOD
$tre_cony_re_fix << EOD
6.064000e+03 5.504493e-01 2
1.406400e+04 8.383534e-01 4
3.011200e+04 6.142579e-01 8
6.240000e+04 3.382834e-01 16
1.277440e+05 3.080600e-01 32
2.615040e+05 2.367671e-01 64
EOD
$tre_rf << EOD
3.584600e+04 5.351484e-01 2
6.797200e+04 4.294927e-01 4
1.322240e+05 4.036937e-01 8
2.607280e+05 4.616521e-01 16
5.177360e+05 2.982551e-01 32
1.031752e+06 2.488642e-01 64
2.059784e+06 2.268329e-01 128
4.115848e+06 1.632029e-01 256
EOD
$tre_corf_re << EOD
8.457000e+03 5.351484e-01 2
1.688300e+04 4.294927e-01 4
3.373500e+04 4.036937e-01 8
6.743900e+04 4.616521e-01 16
1.348470e+05 2.982551e-01 32
2.696630e+05 2.488642e-01 64
5.392950e+05 2.268329e-01 128
1.078559e+06 1.632029e-01 256
EOD
$front_re << EOD
6.064000e+03 5.504493e-01
6.397117e+03 2.193338e-01
1.487277e+04 8.319123e-02
2.530900e+04 9.333991e-04
EOD
$tsi_co_si << EOD
7.816000e+03 2.234875e-03 exact
EOD
$tsi_cony_si_cont << EOD
5.701000e+02 3.352051e-01 2
1.219533e+03 2.161133e-01 4
3.932400e+03 6.605934e-02 8
3.117573e+04 4.020715e-02 16
4.312496e+05 3.254232e-02 32
6.744665e+06 2.234875e-02 64
EOD
$tsi_cony_si_fix << EOD
3.220000e+02 6.363020e-01 2
6.760000e+02 7.656979e-01 4
1.432000e+03 5.902792e-01 8
3.136000e+03 4.919901e-01 16
7.312000e+03 3.502217e-01 32
1.873600e+04 2.542143e-01 64
EOD
$tsi_corf_si << EOD
3.650000e+02 5.922276e-01 2
6.990000e+02 4.773432e-01 4
1.367000e+03 5.411448e-01 8
2.703000e+03 3.800187e-01 16
5.375000e+03 4.625581e-01 32
1.071900e+04 3.532975e-01 64
2.140700e+04 3.784413e-01 128
4.278300e+04 2.859391e-01 256
EOD
$front_si << EOD
3.220000e+02 6.363020e-01
3.650000e+02 5.922276e-01
5.701000e+02 3.352051e-01
1.219533e+03 2.161133e-01
3.932400e+03 6.605934e-02
7.816000e+03 2.234875e-03
EOD
set multiplot layout 1,2 title 'cost vs accuracy, stream ar1, n = 120, d = 16, one head (labels: m; dashed: Pareto front)'
set logscale xy
set grid
set key below font ',9'
set xlabel 'executed FLOPs per step (FLOPs, measure())'
set ylabel '95th percentile relative error per step (unitless)'
set format y '%.0e'
set format x '%.0e'
set title 'whole window (n x d output)'
set yrange [3.111e-04:4.192e+00]
set arrow 1 from graph 0, first 9.334e-04 to graph 1, first 9.334e-04 nohead dt 3 lc rgb '#888888'
set label 1 'exact variants (rounding error only; not to scale)' at graph 0.02, first 1.493e-03 font ',8'
plot $tre_att using 1:2 with points pt 5 ps 1.4 lc rgb '#000000' title 'att (exact: p95 error 5e-16)', $tre_att using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#000000' notitle, $tre_co_re using 1:2 with points pt 5 ps 1.4 lc rgb '#0072b2' title 'co_re (exact: p95 error 2e-15)', $tre_co_re using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#0072b2' notitle, $tre_ny using 1:2 with points pt 7 ps 1.4 lc rgb '#e69f00' title 'ny', $tre_ny using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#e69f00' notitle, $tre_ny_fix using 1:2 with points pt 7 ps 1.4 lc rgb '#56b4e9' title 'ny_fix', $tre_ny_fix using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#56b4e9' notitle, $tre_cony_re_cont using 1:2 with points pt 7 ps 1.4 lc rgb '#cc79a7' title 'cony_re_cont', $tre_cony_re_cont using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#cc79a7' notitle, $tre_cony_re_fix using 1:2 with points pt 7 ps 1.4 lc rgb '#882255' title 'cony_re_fix', $tre_cony_re_fix using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#882255' notitle, $tre_rf using 1:2 with points pt 7 ps 1.4 lc rgb '#44aa99' title 'rf', $tre_rf using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#44aa99' notitle, $tre_corf_re using 1:2 with points pt 7 ps 1.4 lc rgb '#aa4499' title 'corf_re', $tre_corf_re using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#aa4499' notitle, $front_re using 1:2 with linespoints dt 2 lw 1.5 pt 6 ps 2.6 lc rgb '#000000' title 'Pareto front'
set autoscale y
unset arrow 1
unset label 1
set title 'newest query only (1 x d output)'
set yrange [7.450e-04:3.828e+00]
set arrow 1 from graph 0, first 2.235e-03 to graph 1, first 2.235e-03 nohead dt 3 lc rgb '#888888'
set label 1 'exact variants (rounding error only; not to scale)' at graph 0.02, first 3.576e-03 font ',8'
plot $tsi_co_si using 1:2 with points pt 5 ps 1.4 lc rgb '#009e73' title 'co_si (exact: p95 error 8e-16)', $tsi_co_si using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#009e73' notitle, $tsi_cony_si_cont using 1:2 with points pt 7 ps 1.4 lc rgb '#d55e00' title 'cony_si_cont', $tsi_cony_si_cont using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#d55e00' notitle, $tsi_cony_si_fix using 1:2 with points pt 7 ps 1.4 lc rgb '#999933' title 'cony_si_fix', $tsi_cony_si_fix using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#999933' notitle, $tsi_corf_si using 1:2 with points pt 7 ps 1.4 lc rgb '#117733' title 'corf_si', $tsi_corf_si using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#117733' notitle, $front_si using 1:2 with linespoints dt 2 lw 1.5 pt 6 ps 2.6 lc rgb '#000000' title 'Pareto front'
set autoscale y
unset arrow 1
unset label 1
unset multiplot
