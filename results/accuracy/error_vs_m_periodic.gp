set terminal pngcairo size 1500,560 font 'Sans,11' noenhanced
set output 'error_vs_m_periodic.png'
$d64_ny << EOD
2 9.665115e-01
4 7.578670e-01
8 1.813699e-01
16 4.501236e-02
32 1.708516e-02
64 1.282640e-02
EOD
$d64_ny_fix << EOD
2 8.554373e-01
4 6.010833e-01
8 1.485572e-01
16 4.972781e-02
32 4.830949e-02
64 3.404512e-02
EOD
$d64_cony_re_cont << EOD
2 9.755091e-01
4 8.169246e-01
8 2.009511e-01
16 5.024437e-02
32 1.705392e-02
64 1.282640e-02
EOD
$d64_cony_si_cont << EOD
2 9.704148e-01
4 7.698420e-01
8 2.025933e-01
16 5.175400e-02
32 1.819630e-02
64 1.031659e-02
EOD
$d64_cony_re_fix << EOD
2 8.554373e-01
4 6.010833e-01
8 1.485572e-01
16 4.972781e-02
32 4.830949e-02
64 3.404512e-02
EOD
$d64_cony_si_fix << EOD
2 8.697005e-01
4 5.751193e-01
8 9.118766e-02
16 4.162968e-02
32 3.820305e-02
64 3.071274e-02
EOD
$d64_rf << EOD
2 1.426442e+00
4 1.282453e+00
8 1.137667e+00
16 9.907598e-01
32 6.725177e-01
64 6.846739e-01
EOD
$d64_corf_re << EOD
2 1.426442e+00
4 1.282453e+00
8 1.137667e+00
16 9.907598e-01
32 6.725177e-01
64 6.846739e-01
EOD
$d64_corf_si << EOD
2 1.335687e+00
4 1.231517e+00
8 1.030278e+00
16 1.016712e+00
32 6.190118e-01
64 6.446268e-01
EOD
$d120_ny << EOD
2 9.866660e-01
4 8.600241e-01
8 6.338980e-01
16 1.276565e-01
32 2.870964e-02
64 1.978235e-02
EOD
$d120_ny_fix << EOD
2 8.741879e-01
4 6.020610e-01
8 1.360148e-01
16 3.759364e-02
32 3.640038e-02
64 3.053189e-02
EOD
$d120_cony_re_cont << EOD
2 1.000267e+00
4 8.128234e-01
8 5.889220e-01
16 1.512886e-01
32 3.206262e-02
64 2.146942e-02
EOD
$d120_cony_si_cont << EOD
2 9.850663e-01
4 7.588687e-01
8 5.816264e-01
16 1.452188e-01
32 3.321534e-02
64 2.019913e-02
EOD
$d120_cony_re_fix << EOD
2 8.741879e-01
4 6.020610e-01
8 1.360148e-01
16 3.759364e-02
32 3.640038e-02
64 3.053189e-02
EOD
$d120_cony_si_fix << EOD
2 8.922040e-01
4 4.563804e-01
8 9.721236e-02
16 4.014352e-02
32 3.373386e-02
64 2.715059e-02
EOD
$d120_rf << EOD
2 1.417595e+00
4 1.273139e+00
8 1.136228e+00
16 1.002369e+00
32 6.546763e-01
64 7.008400e-01
EOD
$d120_corf_re << EOD
2 1.417595e+00
4 1.273139e+00
8 1.136228e+00
16 1.002369e+00
32 6.546763e-01
64 7.008400e-01
EOD
$d120_corf_si << EOD
2 1.447171e+00
4 1.382025e+00
8 1.095250e+00
16 1.014561e+00
32 6.343809e-01
64 6.118134e-01
EOD
$d512_ny << EOD
2 9.997117e-01
4 9.978896e-01
8 9.771687e-01
16 8.650932e-01
32 5.417053e-01
64 1.233975e-01
EOD
$d512_ny_fix << EOD
2 8.695365e-01
4 5.990777e-01
8 1.266648e-01
16 3.420360e-02
32 3.459694e-02
64 2.695410e-02
EOD
$d512_cony_re_cont << EOD
2 9.989521e-01
4 9.982506e-01
8 9.764602e-01
16 8.727348e-01
32 5.553090e-01
64 1.240774e-01
EOD
$d512_cony_si_cont << EOD
2 1.002616e+00
4 1.001449e+00
8 9.758667e-01
16 8.776149e-01
32 5.665039e-01
64 1.178951e-01
EOD
$d512_cony_re_fix << EOD
2 8.695365e-01
4 5.990777e-01
8 1.266648e-01
16 3.420360e-02
32 3.459694e-02
64 2.695410e-02
EOD
$d512_cony_si_fix << EOD
2 8.872663e-01
4 4.630593e-01
8 6.962401e-02
16 2.981388e-02
32 2.859561e-02
64 2.308970e-02
EOD
$d512_rf << EOD
2 1.425983e+00
4 1.283188e+00
8 1.147715e+00
16 1.014954e+00
32 6.613673e-01
64 6.889453e-01
EOD
$d512_corf_re << EOD
2 1.425983e+00
4 1.283188e+00
8 1.147715e+00
16 1.014954e+00
32 6.613673e-01
64 6.889453e-01
EOD
$d512_corf_si << EOD
2 1.366521e+00
4 1.172537e+00
8 1.076007e+00
16 9.828930e-01
32 6.105969e-01
64 5.947723e-01
EOD
set multiplot layout 1,3 title 'stream periodic: median relative Frobenius error per step vs m'
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
