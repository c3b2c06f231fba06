set terminal pngcairo size 1500,560 font 'Sans,11' noenhanced
set output 'error_vs_m_peaked.png'
$d64_ny << EOD
2 1.379246e+00
4 1.579851e+00
8 1.665676e+00
16 1.631075e+00
32 1.391958e+00
64 9.577844e-03
EOD
$d64_ny_fix << EOD
2 1.950390e+00
4 4.186316e+00
8 2.535188e+00
16 1.956044e+00
32 2.274338e+00
64 1.548836e+00
EOD
$d64_cony_re_cont << EOD
2 1.249325e+00
4 1.552827e+00
8 1.746113e+00
16 1.801047e+00
32 1.477309e+00
64 9.577844e-03
EOD
$d64_cony_si_cont << EOD
2 1.097715e+00
4 1.409231e+00
8 1.697110e+00
16 1.657111e+00
32 1.228319e+00
64 7.144778e-03
EOD
$d64_cony_re_fix << EOD
2 1.950390e+00
4 4.186316e+00
8 2.535188e+00
16 1.956044e+00
32 2.274338e+00
64 1.548836e+00
EOD
$d64_cony_si_fix << EOD
2 1.853045e+00
4 3.651921e+00
8 2.040679e+00
16 1.663860e+00
32 1.872421e+00
64 1.176289e+00
EOD
$d64_rf << EOD
2 1.155481e+00
4 1.112442e+00
8 1.068362e+00
16 1.012139e+00
32 9.779585e-01
64 9.590203e-01
EOD
$d64_corf_re << EOD
2 1.155481e+00
4 1.112442e+00
8 1.068362e+00
16 1.012139e+00
32 9.779585e-01
64 9.590203e-01
EOD
$d64_corf_si << EOD
2 1.174704e+00
4 1.114145e+00
8 1.071164e+00
16 1.029055e+00
32 9.896477e-01
64 9.594992e-01
EOD
$d120_ny << EOD
2 1.065093e+00
4 1.280240e+00
8 1.327907e+00
16 1.427409e+00
32 1.423275e+00
64 1.120745e+00
EOD
$d120_ny_fix << EOD
2 1.665404e+00
4 3.566047e+00
8 2.364981e+00
16 1.975550e+00
32 2.420479e+00
64 1.558456e+00
EOD
$d120_cony_re_cont << EOD
2 1.069193e+00
4 1.296994e+00
8 1.278655e+00
16 1.510192e+00
32 1.487687e+00
64 1.162465e+00
EOD
$d120_cony_si_cont << EOD
2 1.032043e+00
4 1.161294e+00
8 1.241375e+00
16 1.315436e+00
32 1.348930e+00
64 1.039624e+00
EOD
$d120_cony_re_fix << EOD
2 1.665404e+00
4 3.566047e+00
8 2.364981e+00
16 1.975550e+00
32 2.420479e+00
64 1.558456e+00
EOD
$d120_cony_si_fix << EOD
2 1.600595e+00
4 3.321651e+00
8 2.015532e+00
16 1.794493e+00
32 1.977700e+00
64 1.132760e+00
EOD
$d120_rf << EOD
2 1.153684e+00
4 1.059129e+00
8 1.043008e+00
16 9.906598e-01
32 9.766839e-01
64 9.640002e-01
EOD
$d120_corf_re << EOD
2 1.153684e+00
4 1.059129e+00
8 1.043008e+00
16 9.906598e-01
32 9.766839e-01
64 9.640002e-01
EOD
$d120_corf_si << EOD
2 1.119184e+00
4 1.081488e+00
8 1.040980e+00
16 9.986013e-01
32 9.640926e-01
64 9.681500e-01
EOD
$d512_ny << EOD
2 9.973952e-01
4 9.915479e-01
8 9.635674e-01
16 9.261233e-01
32 8.802595e-01
64 9.127252e-01
EOD
$d512_ny_fix << EOD
2 1.710301e+00
4 3.085516e+00
8 2.373737e+00
16 2.236618e+00
32 2.148168e+00
64 1.471783e+00
EOD
$d512_cony_re_cont << EOD
2 9.988876e-01
4 9.814141e-01
8 9.544668e-01
16 8.857477e-01
32 8.816725e-01
64 9.233731e-01
EOD
$d512_cony_si_cont << EOD
2 1.000948e+00
4 9.867777e-01
8 9.707462e-01
16 8.748829e-01
32 8.339585e-01
64 7.953972e-01
EOD
$d512_cony_re_fix << EOD
2 1.710301e+00
4 3.085516e+00
8 2.373737e+00
16 2.236618e+00
32 2.148168e+00
64 1.471783e+00
EOD
$d512_cony_si_fix << EOD
2 1.456538e+00
4 2.699504e+00
8 1.902796e+00
16 1.834626e+00
32 1.646828e+00
64 1.086952e+00
EOD
$d512_rf << EOD
2 1.121570e+00
4 1.042750e+00
8 1.008315e+00
16 9.531195e-01
32 9.564248e-01
64 9.173140e-01
EOD
$d512_corf_re << EOD
2 1.121570e+00
4 1.042750e+00
8 1.008315e+00
16 9.531195e-01
32 9.564248e-01
64 9.173140e-01
EOD
$d512_corf_si << EOD
2 1.148337e+00
4 1.058225e+00
8 1.012033e+00
16 9.426972e-01
32 9.226593e-01
64 8.940694e-01
EOD
set multiplot layout 1,3 title 'stream peaked: median relative Frobenius error per step vs m'
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
