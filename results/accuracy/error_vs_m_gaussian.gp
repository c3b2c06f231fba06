set terminal pngcairo size 1500,560 font 'Sans,11' noenhanced
set output 'error_vs_m_gaussian.png'
$d64_ny << EOD
2 8.805729e-01
4 8.647638e-01
8 7.961627e-01
16 6.111937e-01
32 3.478732e-01
64 8.883586e-03
EOD
$d64_ny_fix << EOD
2 1.117589e+00
4 1.327265e+00
8 1.033893e+00
16 6.035182e-01
32 4.345988e-01
64 4.272880e-01
EOD
$d64_cony_re_cont << EOD
2 8.883324e-01
4 8.647431e-01
8 8.142977e-01
16 6.197033e-01
32 3.501175e-01
64 8.883586e-03
EOD
$d64_cony_si_cont << EOD
2 8.936050e-01
4 9.213742e-01
8 8.094326e-01
16 6.313465e-01
32 3.255791e-01
64 9.307809e-03
EOD
$d64_cony_re_fix << EOD
2 1.117589e+00
4 1.327265e+00
8 1.033893e+00
16 6.035182e-01
32 4.345988e-01
64 4.272880e-01
EOD
$d64_cony_si_fix << EOD
2 9.643201e-01
4 1.155982e+00
8 9.608083e-01
16 5.904517e-01
32 3.818285e-01
64 3.425637e-01
EOD
$d64_rf << EOD
2 1.745815e+00
4 1.366803e+00
8 1.187957e+00
16 9.511811e-01
32 9.138135e-01
64 8.343247e-01
EOD
$d64_corf_re << EOD
2 1.745815e+00
4 1.366803e+00
8 1.187957e+00
16 9.511811e-01
32 9.138135e-01
64 8.343247e-01
EOD
$d64_corf_si << EOD
2 1.640277e+00
4 1.356145e+00
8 1.190626e+00
16 9.121277e-01
32 7.928025e-01
64 6.969907e-01
EOD
$d120_ny << EOD
2 9.213825e-01
4 9.046535e-01
8 8.519979e-01
16 6.865210e-01
32 4.357510e-01
64 2.812167e-01
EOD
$d120_ny_fix << EOD
2 1.146435e+00
4 1.353523e+00
8 1.079903e+00
16 6.057157e-01
32 4.284141e-01
64 4.103783e-01
EOD
$d120_cony_re_cont << EOD
2 9.301861e-01
4 9.100188e-01
8 8.541131e-01
16 6.996273e-01
32 4.372352e-01
64 2.774711e-01
EOD
$d120_cony_si_cont << EOD
2 9.295518e-01
4 9.235413e-01
8 8.665951e-01
16 7.347494e-01
32 4.301207e-01
64 2.545121e-01
EOD
$d120_cony_re_fix << EOD
2 1.146435e+00
4 1.353523e+00
8 1.079903e+00
16 6.057157e-01
32 4.284141e-01
64 4.103783e-01
EOD
$d120_cony_si_fix << EOD
2 1.036869e+00
4 1.199224e+00
8 1.007029e+00
16 5.776061e-01
32 3.731034e-01
64 3.314004e-01
EOD
$d120_rf << EOD
2 1.700616e+00
4 1.375739e+00
8 1.225359e+00
16 9.856434e-01
32 9.537374e-01
64 8.156145e-01
EOD
$d120_corf_re << EOD
2 1.700616e+00
4 1.375739e+00
8 1.225359e+00
16 9.856434e-01
32 9.537374e-01
64 8.156145e-01
EOD
$d120_corf_si << EOD
2 1.720170e+00
4 1.422269e+00
8 1.245247e+00
16 9.686489e-01
32 8.379489e-01
64 7.127749e-01
EOD
$d512_ny << EOD
2 9.877112e-01
4 9.854485e-01
8 9.743435e-01
16 9.303537e-01
32 8.050559e-01
64 5.022645e-01
EOD
$d512_ny_fix << EOD
2 1.307815e+00
4 1.455527e+00
8 1.130255e+00
16 6.371111e-01
32 3.862385e-01
64 3.544428e-01
EOD
$d512_cony_re_cont << EOD
2 9.872769e-01
4 9.843572e-01
8 9.726090e-01
16 9.355980e-01
32 8.182305e-01
64 5.033717e-01
EOD
$d512_cony_si_cont << EOD
2 9.931634e-01
4 9.926681e-01
8 9.812400e-01
16 9.499737e-01
32 8.240695e-01
64 5.016604e-01
EOD
$d512_cony_re_fix << EOD
2 1.307815e+00
4 1.455527e+00
8 1.130255e+00
16 6.371111e-01
32 3.862385e-01
64 3.544428e-01
EOD
$d512_cony_si_fix << EOD
2 1.118456e+00
4 1.302042e+00
8 1.081513e+00
16 5.732922e-01
32 3.391428e-01
64 2.800972e-01
EOD
$d512_rf << EOD
2 1.638354e+00
4 1.373455e+00
8 1.207832e+00
16 9.653991e-01
32 8.687458e-01
64 8.388941e-01
EOD
$d512_corf_re << EOD
2 1.638354e+00
4 1.373455e+00
8 1.207832e+00
16 9.653991e-01
32 8.687458e-01
64 8.388941e-01
EOD
$d512_corf_si << EOD
2 1.670072e+00
4 1.390324e+00
8 1.222169e+00
16 9.505811e-01
32 8.161529e-01
64 7.264622e-01
EOD
set multiplot layout 1,3 title 'stream gaussian: median relative Frobenius error per step vs m'
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
