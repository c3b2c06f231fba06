set terminal pngcairo size 1500,560 font 'Sans,11' noenhanced
set output 'error_vs_m_flat.png'
$d64_ny << EOD
2 4.710616e-01
4 4.677922e-01
8 4.487360e-01
16 3.698158e-01
32 2.104050e-01
64 3.046488e-02
EOD
$d64_ny_fix << EOD
2 4.761758e-01
4 4.691221e-01
8 4.440367e-01
16 3.894556e-01
32 2.968652e-01
64 2.185843e-01
EOD
$d64_cony_re_cont << EOD
2 4.729574e-01
4 4.682604e-01
8 4.546790e-01
16 3.854962e-01
32 2.117252e-01
64 3.046488e-02
EOD
$d64_cony_si_cont << EOD
2 4.601120e-01
4 4.596113e-01
8 4.449327e-01
16 3.839582e-01
32 2.117216e-01
64 3.219907e-02
EOD
$d64_cony_re_fix << EOD
2 4.761758e-01
4 4.691221e-01
8 4.440367e-01
16 3.894556e-01
32 2.968652e-01
64 2.185843e-01
EOD
$d64_cony_si_fix << EOD
2 4.582052e-01
4 4.468380e-01
8 4.195305e-01
16 3.760239e-01
32 2.789386e-01
64 2.078272e-01
EOD
$d64_rf << EOD
2 1.440845e+00
4 1.244854e+00
8 9.450161e-01
16 6.068031e-01
32 4.170529e-01
64 3.752235e-01
EOD
$d64_corf_re << EOD
2 1.440845e+00
4 1.244854e+00
8 9.450161e-01
16 6.068031e-01
32 4.170529e-01
64 3.752235e-01
EOD
$d64_corf_si << EOD
2 1.447664e+00
4 1.257900e+00
8 9.609149e-01
16 6.098679e-01
32 4.043217e-01
64 3.557777e-01
EOD
$d120_ny << EOD
2 5.983060e-01
4 5.970383e-01
8 5.903922e-01
16 5.602663e-01
32 4.438574e-01
64 2.135824e-01
EOD
$d120_ny_fix << EOD
2 5.996923e-01
4 5.937611e-01
8 5.644668e-01
16 4.875417e-01
32 3.712871e-01
64 2.758868e-01
EOD
$d120_cony_re_cont << EOD
2 5.991555e-01
4 5.976418e-01
8 5.896596e-01
16 5.631859e-01
32 4.556271e-01
64 2.044081e-01
EOD
$d120_cony_si_cont << EOD
2 6.049439e-01
4 6.022264e-01
8 5.942424e-01
16 5.578115e-01
32 4.688120e-01
64 2.211412e-01
EOD
$d120_cony_re_fix << EOD
2 5.996923e-01
4 5.937611e-01
8 5.644668e-01
16 4.875417e-01
32 3.712871e-01
64 2.758868e-01
EOD
$d120_cony_si_fix << EOD
2 5.981022e-01
4 5.833300e-01
8 5.462943e-01
16 4.847345e-01
32 3.656094e-01
64 2.639781e-01
EOD
$d120_rf << EOD
2 1.850802e+00
4 1.586959e+00
8 1.182119e+00
16 7.846190e-01
32 5.192101e-01
64 4.458261e-01
EOD
$d120_corf_re << EOD
2 1.850802e+00
4 1.586959e+00
8 1.182119e+00
16 7.846190e-01
32 5.192101e-01
64 4.458261e-01
EOD
$d120_corf_si << EOD
2 1.790511e+00
4 1.541142e+00
8 1.161082e+00
16 7.705940e-01
32 5.127009e-01
64 4.379270e-01
EOD
$d512_ny << EOD
2 7.969450e-01
4 7.968200e-01
8 7.963006e-01
16 7.940675e-01
32 7.831631e-01
64 7.389398e-01
EOD
$d512_ny_fix << EOD
2 7.991324e-01
4 7.869175e-01
8 7.322385e-01
16 6.415787e-01
32 4.975679e-01
64 3.617923e-01
EOD
$d512_cony_re_cont << EOD
2 7.971308e-01
4 7.969304e-01
8 7.961715e-01
16 7.937632e-01
32 7.835559e-01
64 7.390224e-01
EOD
$d512_cony_si_cont << EOD
2 7.662598e-01
4 7.657343e-01
8 7.662952e-01
16 7.662752e-01
32 7.567921e-01
64 7.196386e-01
EOD
$d512_cony_re_fix << EOD
2 7.991324e-01
4 7.869175e-01
8 7.322385e-01
16 6.415787e-01
32 4.975679e-01
64 3.617923e-01
EOD
$d512_cony_si_fix << EOD
2 7.744528e-01
4 7.609778e-01
8 7.011823e-01
16 6.150326e-01
32 4.832496e-01
64 3.559650e-01
EOD
$d512_rf << EOD
2 2.523306e+00
4 1.988669e+00
8 1.666159e+00
16 1.100619e+00
32 8.017653e-01
64 6.132923e-01
EOD
$d512_corf_re << EOD
2 2.523306e+00
4 1.988669e+00
8 1.666159e+00
16 1.100619e+00
32 8.017653e-01
64 6.132923e-01
EOD
$d512_corf_si << EOD
2 2.502580e+00
4 1.975024e+00
8 1.571763e+00
16 1.088013e+00
32 7.689412e-01
64 6.139141e-01
EOD
set multiplot layout 1,3 title 'stream flat: median relative Frobenius error per step vs m'
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
