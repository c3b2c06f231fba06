set terminal pngcairo size 1500,560 font 'Sans,11' noenhanced
set output 'error_vs_m_regime.png'
$d64_ny << EOD
2 5.190418e-01
4 5.171734e-01
8 4.798323e-01
16 3.691753e-01
32 2.192624e-01
64 1.304854e-02
EOD
$d64_ny_fix << EOD
2 1.755922e+00
4 7.198537e-01
8 7.359634e-01
16 7.664685e-01
32 7.187363e-01
64 8.329594e-01
EOD
$d64_cony_re_cont << EOD
2 5.312694e-01
4 5.500691e-01
8 4.911566e-01
16 3.698048e-01
32 2.254397e-01
64 1.304854e-02
EOD
$d64_cony_si_cont << EOD
2 4.839811e-01
4 4.951047e-01
8 4.428905e-01
16 3.535945e-01
32 2.017852e-01
64 1.112881e-02
EOD
$d64_cony_re_fix << EOD
2 1.755922e+00
4 7.198537e-01
8 7.359634e-01
16 7.664685e-01
32 7.187363e-01
64 8.329594e-01
EOD
$d64_cony_si_fix << EOD
2 1.655985e+00
4 6.536492e-01
8 6.502329e-01
16 6.638350e-01
32 6.031791e-01
64 5.147072e-01
EOD
$d64_rf << EOD
2 8.222690e-01
4 7.384068e-01
8 5.826624e-01
16 5.447767e-01
32 4.931556e-01
64 4.742363e-01
EOD
$d64_corf_re << EOD
2 8.222690e-01
4 7.384068e-01
8 5.826624e-01
16 5.447767e-01
32 4.931556e-01
64 4.742363e-01
EOD
$d64_corf_si << EOD
2 7.848191e-01
4 6.888671e-01
8 5.601315e-01
16 5.031177e-01
32 4.632877e-01
64 4.408605e-01
EOD
$d120_ny << EOD
2 4.936889e-01
4 4.850466e-01
8 4.620180e-01
16 3.886049e-01
32 2.592218e-01
64 1.734736e-01
EOD
$d120_ny_fix << EOD
2 1.785295e+00
4 7.512725e-01
8 7.302311e-01
16 7.395727e-01
32 6.794395e-01
64 9.786441e-01
EOD
$d120_cony_re_cont << EOD
2 4.968545e-01
4 4.841347e-01
8 4.638380e-01
16 3.796292e-01
32 2.569536e-01
64 1.711676e-01
EOD
$d120_cony_si_cont << EOD
2 4.854954e-01
4 4.806963e-01
8 4.456570e-01
16 3.598993e-01
32 2.319884e-01
64 1.519211e-01
EOD
$d120_cony_re_fix << EOD
2 1.785295e+00
4 7.512725e-01
8 7.302311e-01
16 7.395727e-01
32 6.794395e-01
64 9.786441e-01
EOD
$d120_cony_si_fix << EOD
2 1.403216e+00
4 6.904407e-01
8 6.882893e-01
16 6.792587e-01
32 6.189284e-01
64 5.226760e-01
EOD
$d120_rf << EOD
2 8.400488e-01
4 7.436029e-01
8 5.620054e-01
16 5.068702e-01
32 4.651034e-01
64 4.434807e-01
EOD
$d120_corf_re << EOD
2 8.400488e-01
4 7.436029e-01
8 5.620054e-01
16 5.068702e-01
32 4.651034e-01
64 4.434807e-01
EOD
$d120_corf_si << EOD
2 8.262897e-01
4 7.025018e-01
8 5.571300e-01
16 5.043837e-01
32 4.401169e-01
64 4.255958e-01
EOD
$d512_ny << EOD
2 4.805507e-01
4 4.796609e-01
8 4.727519e-01
16 4.526693e-01
32 3.894867e-01
64 2.596543e-01
EOD
$d512_ny_fix << EOD
2 1.647818e+00
4 7.239957e-01
8 8.024510e-01
16 7.562998e-01
32 8.176151e-01
64 7.559548e-01
EOD
$d512_cony_re_cont << EOD
2 4.804518e-01
4 4.798789e-01
8 4.726780e-01
16 4.470437e-01
32 3.821252e-01
64 2.630531e-01
EOD
$d512_cony_si_cont << EOD
2 4.654836e-01
4 4.650451e-01
8 4.635520e-01
16 4.424786e-01
32 3.848817e-01
64 2.602381e-01
EOD
$d512_cony_re_fix << EOD
2 1.647818e+00
4 7.239957e-01
8 8.024510e-01
16 7.562998e-01
32 8.176151e-01
64 7.559548e-01
EOD
$d512_cony_si_fix << EOD
2 1.431512e+00
4 6.451845e-01
8 6.942653e-01
16 5.941987e-01
32 5.511096e-01
64 5.056303e-01
EOD
$d512_rf << EOD
2 7.766388e-01
4 7.142825e-01
8 5.733625e-01
16 4.852456e-01
32 4.538642e-01
64 4.407722e-01
EOD
$d512_corf_re << EOD
2 7.766388e-01
4 7.142825e-01
8 5.733625e-01
16 4.852456e-01
32 4.538642e-01
64 4.407722e-01
EOD
$d512_corf_si << EOD
2 7.733028e-01
4 7.112961e-01
8 5.673290e-01
16 4.713653e-01
32 4.403956e-01
64 3.990123e-01
EOD
set multiplot layout 1,3 title 'stream regime: median relative Frobenius error per step vs m'
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
