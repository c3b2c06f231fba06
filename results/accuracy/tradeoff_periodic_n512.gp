set terminal pngcairo size 1500,650 font 'Sans,11' noenhanced
set output 'tradeoff_periodic_n512.png'
set multiplot layout 1,2 title 'cost vs accuracy, stream periodic, n = 512, d = 16, one head (labels: m; dashed: Pareto front)'
set logscale xy
set grid
set key top right font ',9'
set xlabel 'executed FLOPs per step (measure())'
set ylabel '95th percentile relative error per step'
set format y '%.0e'
set format x '%.0e'
$tre_att << EOD
1.704755e+07 7.929650e-16 exact
EOD
$tre_co_re << EOD
1.084130e+05 1.296246e-15 exact
EOD
$tre_ny << EOD
1.541280e+05 1.005253e+00 2
3.026560e+05 1.004499e+00 4
6.412800e+05 9.889582e-01 8
1.549312e+06 8.772596e-01 16
4.804608e+06 5.575195e-01 32
2.120090e+07 1.271867e-01 64
EOD
$tre_ny_fix << EOD
1.372160e+05 8.776295e-01 2
2.826240e+05 6.173306e-01 4
5.980160e+05 1.311992e-01 8
1.327104e+06 3.515111e-02 16
3.178496e+06 3.602108e-02 32
8.454144e+06 2.976696e-02 64
EOD
$tre_cony_re_cont << EOD
2.520920e+04 1.005830e+00 2
5.869655e+04 1.005113e+00 4
1.267101e+05 9.831729e-01 8
2.733632e+05 8.815069e-01 16
6.911784e+05 5.632356e-01 32
3.164725e+06 1.287209e-01 64
EOD
$tre_cony_re_fix << EOD
2.496000e+04 8.776295e-01 2
5.811200e+04 6.173306e-01 4
1.244640e+05 1.311992e-01 8
2.573600e+05 3.515111e-02 16
5.239200e+05 3.602108e-02 32
1.060112e+06 2.976696e-02 64
EOD
$front_re << EOD
2.496000e+04 8.776295e-01
5.811200e+04 6.173306e-01
1.084130e+05 1.296246e-15
EOD
set title 'whole window (n x d output)'
plot $tre_att using 1:2 with points pt 7 ps 1.4 lc rgb '#000000' title 'att', $tre_att using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#000000' notitle, $tre_co_re using 1:2 with points pt 7 ps 1.4 lc rgb '#7f7f7f' title 'co_re', $tre_co_re using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#7f7f7f' notitle, $tre_ny using 1:2 with points pt 7 ps 1.4 lc rgb '#1f77b4' title 'ny', $tre_ny using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#1f77b4' notitle, $tre_ny_fix using 1:2 with points pt 7 ps 1.4 lc rgb '#17becf' title 'ny_fix', $tre_ny_fix using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#17becf' notitle, $tre_cony_re_cont using 1:2 with points pt 7 ps 1.4 lc rgb '#d62728' title 'cony_re_cont', $tre_cony_re_cont using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#d62728' notitle, $tre_cony_re_fix using 1:2 with points pt 7 ps 1.4 lc rgb '#2ca02c' title 'cony_re_fix', $tre_cony_re_fix using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#2ca02c' notitle, $front_re using 1:2 with linespoints dt 2 lw 1.5 pt 6 ps 2.6 lc rgb '#000000' title 'Pareto front'
$tsi_co_si << EOD
3.329600e+04 8.038720e-16 exact
EOD
$tsi_cony_si_cont << EOD
5.953672e+02 1.027989e+00 2
1.197078e+03 1.027299e+00 4
2.768656e+03 1.002181e+00 8
1.117231e+04 9.347648e-01 16
1.095646e+05 8.520465e-01 32
1.600873e+06 1.956803e-01 64
EOD
$tsi_cony_si_fix << EOD
4.320000e+02 1.253213e+00 2
8.800000e+02 1.066670e+00 4
1.824000e+03 3.029290e-01 8
3.904000e+03 7.557739e-02 16
8.832000e+03 1.156952e-01 32
2.176000e+04 8.191945e-02 64
EOD
$front_si << EOD
4.320000e+02 1.253213e+00
5.953672e+02 1.027989e+00
1.197078e+03 1.027299e+00
1.824000e+03 3.029290e-01
3.904000e+03 7.557739e-02
3.329600e+04 8.038720e-16
EOD
set title 'newest query only (1 x d output)'
plot $tsi_co_si using 1:2 with points pt 7 ps 1.4 lc rgb '#7f7f7f' title 'co_si', $tsi_co_si using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#7f7f7f' notitle, $tsi_cony_si_cont using 1:2 with points pt 7 ps 1.4 lc rgb '#d62728' title 'cony_si_cont', $tsi_cony_si_cont using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#d62728' notitle, $tsi_cony_si_fix using 1:2 with points pt 7 ps 1.4 lc rgb '#2ca02c' title 'cony_si_fix', $tsi_cony_si_fix using 1:2:3 with labels offset char 0.9,0.6 font ',8' tc rgb '#2ca02c' notitle, $front_si using 1:2 with linespoints dt 2 lw 1.5 pt 6 ps 2.6 lc rgb '#000000' title 'Pareto front'
unset multiplot
