set terminal pngcairo size 1500,700 font 'Sans,11' noenhanced
set output 'tradeoff_regime_n512.png'
$tre_att << EOD
1.704755e+07 2.658325e-02 exact
EOD
$tre_co_re << EOD
1.084130e+05 2.658325e-02 exact
EOD
$tre_ny << EOD
1.541280e+05 4.828118e-01 2
3.026560e+05 4.820662e-01 4
6.412800e+05 4.765300e-01 8
1.549312e+06 4.573599e-01 16
4.804608e+06 3.982037e-01 32
2.120090e+07 2.658325e-01 64
EOD
$tre_ny_fix << EOD
1.290240e+05 1.718423e+00 2
2.744320e+05 7.314951e-01 4
5.898240e+05 8.315724e-01 8
1.318912e+06 7.662792e-01 16
3.170304e+06 8.370651e-01 32
8.445952e+06 7.716910e-01 64
EOD
$tre_cony_re_cont << EOD
2.520920e+04 4.828165e-01 2
5.869655e+04 4.823393e-01 4
1.267101e+05 4.744195e-01 8
2.733632e+05 4.506296e-01 16
6.911784e+05 3.854316e-01 32
3.164725e+06 2.717137e-01 64
EOD
$tre_cony_re_fix << EOD
2.488000e+04 1.718423e+00 2
5.796800e+04 7.314951e-01 4
1.241920e+05 8.315724e-01 8
2.568320e+05 7.662792e-01 16
5.228800e+05 8.370651e-01 32
1.058048e+06 7.716910e-01 64
EOD
$tre_rf << EOD
1.530540e+05 7.079948e-01 2
2.902360e+05 6.806400e-01 4
5.646000e+05 6.368066e-01 8
1.113328e+06 5.524794e-01 16
2.210784e+06 5.123118e-01 32
4.405696e+06 4.899839e-01 64
8.795520e+06 4.360906e-01 128
1.757517e+07 3.930638e-01 256
EOD
$tre_corf_re << EOD
3.511300e+04 7.079948e-01 2
7.019500e+04 6.806400e-01 4
1.403590e+05 6.368066e-01 8
2.806870e+05 5.524794e-01 16
5.613430e+05 5.123118e-01 32
1.122655e+06 4.899839e-01 64
2.245279e+06 4.360906e-01 128
4.490527e+06 3.930638e-01 256
EOD
$front_re << EOD
2.488000e+04 1.718423e+00
2.520920e+04 4.828165e-01
5.869655e+04 4.823393e-01
1.084130e+05 2.658325e-02
EOD
$tsi_co_si << EOD
3.329600e+04 4.005494e-02 exact
EOD
$tsi_cony_si_cont << EOD
5.654297e+02 6.441158e-01 2
1.137203e+03 6.442385e-01 4
2.648906e+03 6.332174e-01 8
1.093281e+04 6.018826e-01 16
1.090856e+05 5.428841e-01 32
1.599915e+06 4.005494e-01 64
EOD
$tsi_cony_si_fix << EOD
3.220000e+02 2.988571e+00 2
6.760000e+02 1.138293e+00 4
1.432000e+03 1.171830e+00 8
3.136000e+03 1.418105e+00 16
7.312000e+03 1.577009e+00 32
1.873600e+04 1.617781e+00 64
EOD
$tsi_corf_si << EOD
3.650000e+02 8.965769e-01 2
6.990000e+02 9.096320e-01 4
1.367000e+03 8.439829e-01 8
2.703000e+03 7.530958e-01 16
5.375000e+03 7.403807e-01 32
1.071900e+04 7.319294e-01 64
2.140700e+04 6.782889e-01 128
4.278300e+04 6.203060e-01 256
EOD
$front_si << EOD
3.220000e+02 2.988571e+00
3.650000e+02 8.965769e-01
5.654297e+02 6.441158e-01
2.648906e+03 6.332174e-01
1.093281e+04 6.018826e-01
3.329600e+04 4.005494e-02
EOD
set multiplot layout 1,2 title 'cost vs accuracy, stream regime, n = 512, d = 16, one head (labels: m; dashed: Pareto front)'
set logscale xy
set grid
set key below font ',9'
set xlabel 'executed FLOPs per step (FLOPs, measure())'
set ylabel '95th percentile relative error per step (unitless)'
set format y '%.0e'
set format x '%.0e'
set title 'whole window (n x d output)'
set yrange [8.861e-03:8.592e+00]
set arrow 1 from graph 0, first 2.658e-02 to graph 1, first 2.658e-02 nohead dt 3 lc rgb '#888888'
set label 1 'exact variants (rounding error only; not to scale)' at graph 0.02, first 4.253e-02 font ',8'
plot $tre_att using 1:2 with points pt 5 ps 1.4 lc rgb '#000000' title 'att (exact: p95 error 8e-16)', $tre_att using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#000000' notitle, $tre_co_re using 1:2 with points pt 5 ps 1.4 lc rgb '#0072b2' title 'co_re (exact: p95 error 1e-15)', $tre_co_re using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#0072b2' notitle, $tre_ny using 1:2 with points pt 7 ps 1.4 lc rgb '#e69f00' title 'ny', $tre_ny using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#e69f00' notitle, $tre_ny_fix using 1:2 with points pt 7 ps 1.4 lc rgb '#56b4e9' title 'ny_fix', $tre_ny_fix using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#56b4e9' notitle, $tre_cony_re_cont using 1:2 with points pt 7 ps 1.4 lc rgb '#cc79a7' title 'cony_re_cont', $tre_cony_re_cont using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#cc79a7' notitle, $tre_cony_re_fix using 1:2 with points pt 7 ps 1.4 lc rgb '#882255' title 'cony_re_fix', $tre_cony_re_fix using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#882255' notitle, $tre_rf using 1:2 with points pt 7 ps 1.4 lc rgb '#44aa99' title 'rf', $tre_rf using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#44aa99' notitle, $tre_corf_re using 1:2 with points pt 7 ps 1.4 lc rgb '#aa4499' title 'corf_re', $tre_corf_re using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#aa4499' notitle, $front_re using 1:2 with linespoints dt 2 lw 1.5 pt 6 ps 2.6 lc rgb '#000000' title 'Pareto front'
set autoscale y
unset arrow 1
unset label 1
set title 'newest query only (1 x d output)'
set yrange [1.335e-02:1.494e+01]
set arrow 1 from graph 0, first 4.005e-02 to graph 1, first 4.005e-02 nohead dt 3 lc rgb '#888888'
set label 1 'exact variants (rounding error only; not to scale)' at graph 0.02, first 6.409e-02 font ',8'
plot $tsi_co_si using 1:2 with points pt 5 ps 1.4 lc rgb '#009e73' title 'co_si (exact: p95 error 1e-15)', $tsi_co_si using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#009e73' notitle, $tsi_cony_si_cont using 1:2 with points pt 7 ps 1.4 lc rgb '#d55e00' title 'cony_si_cont', $tsi_cony_si_cont using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#d55e00' notitle, $tsi_cony_si_fix using 1:2 with points pt 7 ps 1.4 lc rgb '#999933' title 'cony_si_fix', $tsi_cony_si_fix using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#999933' notitle, $tsi_corf_si using 1:2 with points pt 7 ps 1.4 lc rgb '#117733' title 'corf_si', $tsi_corf_si using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#117733' notitle, $front_si using 1:2 with linespoints dt 2 lw 1.5 pt 6 ps 2.6 lc rgb '#000000' title 'Pareto front'
set autoscale y
unset arrow 1
unset label 1
unset multiplot
