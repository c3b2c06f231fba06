set terminal pngcairo size 1500,560 font 'Sans,11' noenhanced
set output 'error_vs_m_ar1.png'
$d64_ny << EOD
2 3.694517e-02
4 9.003012e-03
8 6.047249e-03
16 5.334588e-03
32 5.145801e-03
64 4.934210e-03
EOD
$d64_ny_fix << EOD
2 1.319852e-01
4 1.662675e-01
8 2.489143e-01
16 1.184903e-01
32 9.753219e-02
64 6.996091e-02
EOD
$d64_cony_re_cont << EOD
2 4.449465e-02
4 1.401449e-02
8 7.814072e-03
16 6.040104e-03
32 5.282846e-03
64 4.934210e-03
EOD
$d64_cony_si_cont << EOD
2 7.558006e-02
4 2.548055e-02
8 1.110105e-02
16 8.188155e-03
32 6.910938e-03
64 5.910686e-03
EOD
$d64_cony_re_fix << EOD
2 1.319852e-01
4 1.662675e-01
8 2.489143e-01
16 1.184903e-01
32 9.753219e-02
64 6.996091e-02
EOD
$d64_cony_si_fix << EOD
2 1.902115e-01
4 2.314284e-01
8 2.579438e-01
16 1.381986e-01
32 1.040133e-01
64 7.152803e-02
EOD
$d64_rf << EOD
2 2.929209e-01
4 2.607405e-01
8 2.222318e-01
16 1.792014e-01
32 9.960522e-02
64 8.598546e-02
EOD
$d64_corf_re << EOD
2 2.929209e-01
4 2.607405e-01
8 2.222318e-01
16 1.792014e-01
32 9.960522e-02
64 8.598546e-02
EOD
$d64_corf_si << EOD
2 2.917803e-01
4 2.430874e-01
8 1.342788e-01
16 1.164555e-01
32 9.902371e-02
64 7.353044e-02
EOD
$d120_ny << EOD
2 9.160363e-02
4 2.369683e-02
8 1.159848e-02
16 9.143166e-03
32 8.162825e-03
64 8.015653e-03
EOD
$d120_ny_fix << EOD
2 4.112221e-01
4 5.483975e-01
8 3.600165e-01
16 2.645210e-01
32 1.994313e-01
64 1.541678e-01
EOD
$d120_cony_re_cont << EOD
2 1.487320e-01
4 3.714501e-02
8 1.649076e-02
16 1.098289e-02
32 9.187543e-03
64 8.001951e-03
EOD
$d120_cony_si_cont << EOD
2 1.651794e-01
4 6.467682e-02
8 3.183400e-02
16 1.880486e-02
32 1.378999e-02
64 1.128355e-02
EOD
$d120_cony_re_fix << EOD
2 4.112221e-01
4 5.483975e-01
8 3.600165e-01
16 2.645210e-01
32 1.994313e-01
64 1.541678e-01
EOD
$d120_cony_si_fix << EOD
2 3.797561e-01
4 5.574011e-01
8 3.650829e-01
16 2.170670e-01
32 1.604901e-01
64 1.362104e-01
EOD
$d120_rf << EOD
2 5.121337e-01
4 4.940778e-01
8 3.983725e-01
16 3.530118e-01
32 3.230784e-01
64 1.842873e-01
EOD
$d120_corf_re << EOD
2 5.121337e-01
4 4.940778e-01
8 3.983725e-01
16 3.530118e-01
32 3.230784e-01
64 1.842873e-01
EOD
$d120_corf_si << EOD
2 4.650497e-01
4 4.175089e-01
8 3.718098e-01
16 2.722736e-01
32 2.628992e-01
64 1.217012e-01
EOD
$d512_ny << EOD
2 7.497001e-01
4 3.274573e-01
8 7.748308e-02
16 3.217449e-02
32 1.643883e-02
64 1.125680e-02
EOD
$d512_ny_fix << EOD
2 6.431365e-01
4 7.435399e-01
8 9.278114e-01
16 4.823820e-01
32 3.731310e-01
64 3.084929e-01
EOD
$d512_cony_re_cont << EOD
2 4.862683e-01
4 3.091140e-01
8 1.103136e-01
16 3.733661e-02
32 1.733933e-02
64 1.163241e-02
EOD
$d512_cony_si_cont << EOD
2 4.403671e-01
4 5.164915e-01
8 1.437055e-01
16 5.992700e-02
32 3.150597e-02
64 2.150135e-02
EOD
$d512_cony_re_fix << EOD
2 6.431365e-01
4 7.435399e-01
8 9.278114e-01
16 4.823820e-01
32 3.731310e-01
64 3.084929e-01
EOD
$d512_cony_si_fix << EOD
2 3.234755e-01
4 1.177432e+00
8 1.594949e+00
16 4.127960e-01
32 4.303749e-01
64 4.493396e-01
EOD
$d512_rf << EOD
2 8.527134e-01
4 8.322371e-01
8 6.453962e-01
16 5.285339e-01
32 6.558733e-01
64 5.977871e-01
EOD
$d512_corf_re << EOD
2 8.527134e-01
4 8.322371e-01
8 6.453962e-01
16 5.285339e-01
32 6.558733e-01
64 5.977871e-01
EOD
$d512_corf_si << EOD
2 7.485054e-01
4 6.652698e-01
8 6.152525e-01
16 5.099825e-01
32 6.727168e-01
64 5.073245e-01
EOD
set multiplot layout 1,3 title 'stream ar1: median relative Frobenius error per step vs m'
set logscale xy
set grid
set key below font ',9'
set xlabel 'm: landmarks (Nystrom) or random features (corf), count'
set ylabel 'median relative error per step (unitless)'
set format y '%.0e'
set title 'n = 64'
plot $d64_ny using 1:2 with linespoints lw 2 pt 7 lc rgb '#e69f00' dt 1 title 'ny', $d64_ny_fix using 1:2 with linespoints lw 2 pt 7 lc rgb '#56b4e9' dt 1 title 'ny_fix', $d64_cony_re_cont using 1:2 with linespoints lw 2 pt 7 lc rgb '#cc79a7' dt 1 title 'cony_re_cont', $d64_cony_si_cont using 1:2 with linespoints lw 2 pt 6 lc rgb '#d55e00' dt 2 title 'cony_si_cont', $d64_cony_re_fix using 1:2 with linespoints lw 2 pt 7 lc rgb '#882255' dt 1 title 'cony_re_fix', $d64_cony_si_fix using 1:2 with linespoints lw 2 pt 6 lc rgb '#999933' dt 2 title 'cony_si_fix', $d64_rf using 1:2 with linespoints lw 2 pt 7 lc rgb '#44aa99' dt 1 title 'rf', $d64_corf_re using 1:2 with linespoints lw 2 pt 7 lc rgb '#aa4499' dt 1 title 'corf_re', $d64_corf_si using 1:2 with linespoints lw 2 pt 6 lc rgb '#117733' dt 2 title 'corf_si'
set title 'n = 120'
plot $d120_ny using 1:2 with linespoints lw 2 pt 7 lc rgb '#e69f00' dt 1 title 'ny', $d120_ny_fix using 1:2 with linespoints lw 2 pt 7 lc rgb '#56b4e9' dt 1 title 'ny_fix', $d120_cony_re_cont using 1:2 with linespoints lw 2 pt 7 lc rgb '#cc79a7' dt 1 title 'cony_re_cont', $d120_cony_si_cont using 1:2 with linespoints lw 2 pt 6 lc rgb '#d55e00' dt 2 title 'cony_si_cont', $d120_cony_re_fix using 1:2 with linespoints lw 2 pt 7 lc rgb '#882255' dt 1 title 'cony_re_fix', $d120_cony_si_fix using 1:2 with linespoints lw 2 pt 6 lc rgb '#999933' dt 2 title 'cony_si_fix', $d120_rf using 1:2 with linespoints lw 2 pt 7 lc rgb '#44aa99' dt 1 title 'rf', $d120_corf_re using 1:2 with linespoints lw 2 pt 7 lc rgb '#aa4499' dt 1 title 'corf_re', $d120_corf_si using 1:2 with linespoints lw 2 pt 6 lc rgb '#117733' dt 2 title 'corf_si'
set title 'n = 512'
plot $d512_ny using 1:2 with linespoints lw 2 pt 7 lc rgb '#e69f00' dt 1 title 'ny', $d512_ny_fix using 1:2 with linespoints lw 2 pt 7 lc rgb '#56b4e9' dt 1 title 'ny_fix', $d512_cony_re_cont using 1:2 with linespoints lw 2 pt 7 lc rgb '#cc79a7' dt 1 title 'cony_re_cont', $d512_cony_si_cont using 1:2 with linespoints lw 2 pt 6 lc rgb '#d55e00' dt 2 title 'cony_si_cont', $d512_cony_re_fix using 1:2 with linespoints lw 2 pt 7 lc rgb '#882255' dt 1 title 'cony_re_fix', $d512_cony_si_fix using 1:2 with linespoints lw 2 pt 6 lc rgb '#999933' dt 2 title 'cony_si_fix', $d512_rf using 1:2 with linespoints lw 2 pt 7 lc rgb '#44aa99' dt 1 title 'rf', $d512_corf_re using 1:2 with linespoints lw 2 pt 7 lc rgb '#aa4499' dt 1 title 'corf_re', $d512_corf_si using 1:2 with linespoints lw 2 pt 6 lc rgb '#117733' dt 2 title 'corf_si'
unset multiplot
