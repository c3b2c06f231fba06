set terminal pngcairo size 1500,700 font 'Sans,11' noenhanced
set output 'tradeoff_gaussian_n64.png'
$tre_att << EOD
2.672640e+05 1.070429e-03 exact
EOD
$tre_co_re << EOD
1.343700e+04 1.070429e-03 exact
EOD
$tre_ny << EOD
1.972800e+04 9.277474e-01 2
4.102400e+04 9.144890e-01 4
1.036800e+05 8.775232e-01 8
3.737600e+05 6.634388e-01 16
2.009088e+06 4.063441e-01 32
1.378918e+07 1.070429e-02 64
EOD
$tre_ny_fix << EOD
1.612800e+04 1.180117e+00 2
3.430400e+04 1.459160e+00 4
7.372800e+04 1.171209e+00 8
1.648640e+05 6.687087e-01 16
3.962880e+05 4.905314e-01 32
1.055744e+06 4.529779e-01 64
EOD
$tre_cony_re_cont << EOD
3.713594e+03 9.400593e-01 2
8.692438e+03 9.312422e-01 4
2.192088e+04 8.676900e-01 8
9.440975e+04 6.527978e-01 16
9.290275e+05 3.849563e-01 32
1.327164e+07 1.070429e-02 64
EOD
$tre_cony_re_fix << EOD
3.376000e+03 1.180117e+00 2
7.792000e+03 1.459160e+00 4
1.667200e+04 1.171209e+00 8
3.462400e+04 6.687087e-01 16
7.129600e+04 4.905314e-01 32
1.477120e+05 4.529779e-01 64
EOD
$tre_rf << EOD
1.910200e+04 1.535262e+00 2
3.622000e+04 1.533631e+00 4
7.045600e+04 1.430092e+00 8
1.389280e+05 1.252864e+00 16
2.758720e+05 1.124137e+00 32
5.497600e+05 1.083882e+00 64
1.097536e+06 1.092253e+00 128
2.193088e+06 8.720626e-01 256
EOD
$tre_corf_re << EOD
4.649000e+03 1.535262e+00 2
9.267000e+03 1.533631e+00 4
1.850300e+04 1.430092e+00 8
3.697500e+04 1.252864e+00 16
7.391900e+04 1.124137e+00 32
1.478070e+05 1.083882e+00 64
2.955830e+05 1.092253e+00 128
5.911350e+05 8.720626e-01 256
EOD
$front_re << EOD
3.376000e+03 1.180117e+00
3.713594e+03 9.400593e-01
8.692438e+03 9.312422e-01
1.343700e+04 1.070429e-03
EOD
$tsi_co_si << EOD
4.176000e+03 2.048338e-03 exact
EOD
$tsi_cony_si_cont << EOD
5.754375e+02 1.091286e+00 2
1.313625e+03 1.120319e+00 4
5.399250e+03 1.152789e+00 8
5.431050e+04 9.981126e-01 16
7.994370e+05 5.480499e-01 32
1.262438e+07 2.048338e-02 64
EOD
$tsi_cony_si_fix << EOD
3.220000e+02 1.854931e+00 2
6.760000e+02 2.186656e+00 4
1.432000e+03 1.582242e+00 8
3.136000e+03 9.370326e-01 16
7.312000e+03 6.290215e-01 32
1.873600e+04 6.378938e-01 64
EOD
$tsi_corf_si << EOD
3.650000e+02 2.245074e+00 2
6.990000e+02 2.150176e+00 4
1.367000e+03 1.978798e+00 8
2.703000e+03 1.827147e+00 16
5.375000e+03 1.559679e+00 32
1.071900e+04 1.570551e+00 64
2.140700e+04 1.416787e+00 128
4.278300e+04 1.195590e+00 256
EOD
$front_si << EOD
3.220000e+02 1.854931e+00
5.754375e+02 1.091286e+00
3.136000e+03 9.370326e-01
4.176000e+03 2.048338e-03
EOD
set multiplot layout 1,2 title 'cost vs accuracy, stream gaussian, n = 64, d = 16, one head (labels: m; dashed: Pareto front)'
set logscale xy
set grid
set key below font ',9'
set xlabel 'executed FLOPs per step (FLOPs, measure())'
set ylabel '95th percentile relative error per step (unitless)'
set format y '%.0e'
set format x '%.0e'
set title 'whole window (n x d output)'
set yrange [3.568e-04:7.676e+00]
set arrow 1 from graph 0, first 1.070e-03 to graph 1, first 1.070e-03 nohead dt 3 lc rgb '#888888'
set label 1 'exact variants (rounding error only; not to scale)' at graph 0.02, first 1.713e-03 font ',8'
plot $tre_att using 1:2 with points pt 5 ps 1.4 lc rgb '#000000' title 'att (exact: p95 error 4e-16)', $tre_att using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#000000' notitle, $tre_co_re using 1:2 with points pt 5 ps 1.4 lc rgb '#0072b2' title 'co_re (exact: p95 error 8e-16)', $tre_co_re using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#0072b2' notitle, $tre_ny using 1:2 with points pt 7 ps 1.4 lc rgb '#e69f00' title 'ny', $tre_ny using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#e69f00' notitle, $tre_ny_fix using 1:2 with points pt 7 ps 1.4 lc rgb '#56b4e9' title 'ny_fix', $tre_ny_fix using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#56b4e9' notitle, $tre_cony_re_cont using 1:2 with points pt 7 ps 1.4 lc rgb '#cc79a7' title 'cony_re_cont', $tre_cony_re_cont using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#cc79a7' notitle, $tre_cony_re_fix using 1:2 with points pt 7 ps 1.4 lc rgb '#882255' title 'cony_re_fix', $tre_cony_re_fix using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#882255' notitle, $tre_rf using 1:2 with points pt 7 ps 1.4 lc rgb '#44aa99' title 'rf', $tre_rf using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#44aa99' notitle, $tre_corf_re using 1:2 with points pt 7 ps 1.4 lc rgb '#aa4499' title 'corf_re', $tre_corf_re using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#aa4499' notitle, $front_re using 1:2 with linespoints dt 2 lw 1.5 pt 6 ps 2.6 lc rgb '#000000' title 'Pareto front'
set autoscale y
unset arrow 1
unset label 1
set title 'newest query only (1 x d output)'
set yrange [6.828e-04:1.123e+01]
set arrow 1 from graph 0, first 2.048e-03 to graph 1, first 2.048e-03 nohead dt 3 lc rgb '#888888'
set label 1 'exact variants (rounding error only; not to scale)' at graph 0.02, first 3.277e-03 font ',8'
plot $tsi_co_si using 1:2 with points pt 5 ps 1.4 lc rgb '#009e73' title 'co_si (exact: p95 error 7e-16)', $tsi_co_si using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#009e73' notitle, $tsi_cony_si_cont using 1:2 with points pt 7 ps 1.4 lc rgb '#d55e00' title 'cony_si_cont', $tsi_cony_si_cont using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#d55e00' notitle, $tsi_cony_si_fix using 1:2 with points pt 7 ps 1.4 lc rgb '#999933' title 'cony_si_fix', $tsi_cony_si_fix using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#999933' notitle, $tsi_corf_si using 1:2 with points pt 7 ps 1.4 lc rgb '#117733' title 'corf_si', $tsi_corf_si using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#117733' notitle, $front_si using 1:2 with linespoints dt 2 lw 1.5 pt 6 ps 2.6 lc rgb '#000000' title 'Pareto front'
set autoscale y
unset arrow 1
unset label 1
unset multiplot
