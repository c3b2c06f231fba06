set terminal pngcairo size 1500,700 font 'Sans,11' noenhanced
set output 'tradeoff_gaussian_n512.png'
$tre_att << EOD
1.704755e+07 3.576703e-02 exact
EOD
$tre_co_re << EOD
1.084130e+05 3.576703e-02 exact
EOD
$tre_ny << EOD
1.541280e+05 9.904755e-01 2
3.026560e+05 9.876918e-01 4
6.412800e+05 9.804245e-01 8
1.549312e+06 9.422256e-01 16
4.804608e+06 8.260456e-01 32
2.120090e+07 5.221250e-01 64
EOD
$tre_ny_fix << EOD
1.290240e+05 1.325000e+00 2
2.744320e+05 1.470497e+00 4
5.898240e+05 1.136671e+00 8
1.318912e+06 6.484805e-01 16
3.170304e+06 3.903429e-01 32
8.445952e+06 3.576703e-01 64
EOD
$tre_cony_re_cont << EOD
2.520920e+04 9.910804e-01 2
5.869655e+04 9.879454e-01 4
1.267101e+05 9.756904e-01 8
2.733632e+05 9.383879e-01 16
6.911784e+05 8.239651e-01 32
3.164725e+06 5.118012e-01 64
EOD
$tre_cony_re_fix << EOD
2.488000e+04 1.325000e+00 2
5.796800e+04 1.470497e+00 4
1.241920e+05 1.136671e+00 8
2.568320e+05 6.484805e-01 16
5.228800e+05 3.903429e-01 32
1.058048e+06 3.576703e-01 64
EOD
$tre_rf << EOD
1.530540e+05 1.563635e+00 2
2.902360e+05 1.420409e+00 4
5.646000e+05 1.237192e+00 8
1.113328e+06 1.077939e+00 16
2.210784e+06 9.694286e-01 32
4.405696e+06 8.878758e-01 64
8.795520e+06 8.484356e-01 128
1.757517e+07 8.542304e-01 256
EOD
$tre_corf_re << EOD
3.511300e+04 1.563635e+00 2
7.019500e+04 1.420409e+00 4
1.403590e+05 1.237192e+00 8
2.806870e+05 1.077939e+00 16
5.613430e+05 9.694286e-01 32
1.122655e+06 8.878758e-01 64
2.245279e+06 8.484356e-01 128
4.490527e+06 8.542304e-01 256
EOD
$front_re << EOD
2.488000e+04 1.325000e+00
2.520920e+04 9.910804e-01
5.869655e+04 9.879454e-01
1.084130e+05 3.576703e-02
EOD
$tsi_co_si << EOD
3.329600e+04 4.459437e-02 exact
EOD
$tsi_cony_si_cont << EOD
5.654297e+02 1.056045e+00 2
1.137203e+03 1.056181e+00 4
2.648906e+03 1.046646e+00 8
1.093281e+04 1.009105e+00 16
1.090856e+05 9.267453e-01 32
1.599915e+06 6.399278e-01 64
EOD
$tsi_cony_si_fix << EOD
3.220000e+02 1.917810e+00 2
6.760000e+02 2.111733e+00 4
1.432000e+03 1.605815e+00 8
3.136000e+03 9.342430e-01 16
7.312000e+03 5.886692e-01 32
1.873600e+04 4.459437e-01 64
EOD
$tsi_corf_si << EOD
3.650000e+02 2.061720e+00 2
6.990000e+02 1.864382e+00 4
1.367000e+03 1.697822e+00 8
2.703000e+03 1.751513e+00 16
5.375000e+03 1.509216e+00 32
1.071900e+04 1.463136e+00 64
2.140700e+04 1.572136e+00 128
4.278300e+04 1.327526e+00 256
EOD
$front_si << EOD
3.220000e+02 1.917810e+00
5.654297e+02 1.056045e+00
2.648906e+03 1.046646e+00
3.136000e+03 9.342430e-01
7.312000e+03 5.886692e-01
1.873600e+04 4.459437e-01
3.329600e+04 4.459437e-02
EOD
set multiplot layout 1,2 title 'cost vs accuracy, stream gaussian, n = 512, d = 16, one head (labels: m; dashed: Pareto front)'
set logscale xy
set grid
set key below font ',9'
set xlabel 'executed FLOPs per step (FLOPs, measure())'
set ylabel '95th percentile relative error per step (unitless)'
set format y '%.0e'
set format x '%.0e'
set title 'whole window (n x d output)'
set yrange [1.192e-02:7.818e+00]
set arrow 1 from graph 0, first 3.577e-02 to graph 1, first 3.577e-02 nohead dt 3 lc rgb '#888888'
set label 1 'exact variants (rounding error only; not to scale)' at graph 0.02, first 5.723e-02 font ',8'
plot $tre_att using 1:2 with points pt 5 ps 1.4 lc rgb '#000000' title 'att (exact: p95 error 8e-16)', $tre_att using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#000000' notitle, $tre_co_re using 1:2 with points pt 5 ps 1.4 lc rgb '#0072b2' title 'co_re (exact: p95 error 1e-15)', $tre_co_re using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#0072b2' notitle, $tre_ny using 1:2 with points pt 7 ps 1.4 lc rgb '#e69f00' title 'ny', $tre_ny using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#e69f00' notitle, $tre_ny_fix using 1:2 with points pt 7 ps 1.4 lc rgb '#56b4e9' title 'ny_fix', $tre_ny_fix using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#56b4e9' notitle, $tre_cony_re_cont using 1:2 with points pt 7 ps 1.4 lc rgb '#cc79a7' title 'cony_re_cont', $tre_cony_re_cont using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#cc79a7' notitle, $tre_cony_re_fix using 1:2 with points pt 7 ps 1.4 lc rgb '#882255' title 'cony_re_fix', $tre_cony_re_fix using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#882255' notitle, $tre_rf using 1:2 with points pt 7 ps 1.4 lc rgb '#44aa99' title 'rf', $tre_rf using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#44aa99' notitle, $tre_corf_re using 1:2 with points pt 7 ps 1.4 lc rgb '#aa4499' title 'corf_re', $tre_corf_re using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#aa4499' notitle, $front_re using 1:2 with linespoints dt 2 lw 1.5 pt 6 ps 2.6 lc rgb '#000000' title 'Pareto front'
set autoscale y
unset arrow 1
unset label 1
set title 'newest query only (1 x d output)'
set yrange [1.486e-02:1.056e+01]
set arrow 1 from graph 0, first 4.459e-02 to graph 1, first 4.459e-02 nohead dt 3 lc rgb '#888888'
set label 1 'exact variants (rounding error only; not to scale)' at graph 0.02, first 7.135e-02 font ',8'
plot $tsi_co_si using 1:2 with points pt 5 ps 1.4 lc rgb '#009e73' title 'co_si (exact: p95 error 1e-15)', $tsi_co_si using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#009e73' notitle, $tsi_cony_si_cont using 1:2 with points pt 7 ps 1.4 lc rgb '#d55e00' title 'cony_si_cont', $tsi_cony_si_cont using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#d55e00' notitle, $tsi_cony_si_fix using 1:2 with points pt 7 ps 1.4 lc rgb '#999933' title 'cony_si_fix', $tsi_cony_si_fix using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#999933' notitle, $tsi_corf_si using 1:2 with points pt 7 ps 1.4 lc rgb '#117733' title 'corf_si', $tsi_corf_si using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#117733' notitle, $front_si using 1:2 with linespoints dt 2 lw 1.5 pt 6 ps 2.6 lc rgb '#000000' title 'Pareto front'
set autoscale y
unset arrow 1
unset label 1
unset multiplot
