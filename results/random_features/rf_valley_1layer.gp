# Random features beside Nyström: cost per step against n (d = 200, m = 8) Memory kept between steps (valley), one layer (d = 200, m = 8)
# Written by cosda report configs/random_features.toml from points.csv; data inline. Executed counts solid
# (FLOPs in convention all), published formulas dashed (FLOPs from the Nyström paper, App. A (continual landmarks: one refresh every n/m steps, the other steps as the fixed-landmark update); memory from App. B), in the
# paper's convention mac.
# Fixed: layers = 1.
if (!exists("png")) png = 'rf_valley_1layer.png'
if (!exists("pdf")) pdf = 'rf_valley_1layer.pdf'
$e_att << EOD
8 4200
16 9000
32 18600
64 37800
128 76200
256 153000
512 306600
1024 613800
2048 1228200
4096 2457000
8192 4914600
EOD
$p_att << EOD
8 4797
16 9597
32 19197
64 38397
128 76797
256 153597
512 307197
1024 614397
2048 1228797
4096 2457597
8192 4915197
EOD
$e_co_si << EOD
8 2800
16 6000
32 12400
64 25200
128 50800
256 102000
512 204400
1024 409200
2048 818800
4096 1638000
8192 3276400
EOD
$p_co_si << EOD
8 3198
16 6398
32 12798
64 25598
128 51198
256 102398
512 204798
1024 409598
2048 819198
4096 1638398
8192 3276798
EOD
$e_ny << EOD
8 4200
16 9000
32 18600
64 37800
128 76200
256 153000
512 306600
1024 613800
2048 1228200
4096 2457000
8192 4914600
EOD
$p_ny << EOD
8 4797
16 9597
32 19197
64 38397
128 76797
256 153597
512 307197
1024 614397
2048 1228797
4096 2457597
8192 4915197
EOD
$e_cony_si_cont << EOD
8 7670
16 11535
32 17935
64 30735
128 56335
256 107535
512 209935
1024 414735
2048 824335
4096 1643535
8192 3281935
EOD
$p_cony_si_cont << EOD
8 9726
16 12926
32 19326
64 32126
128 57726
256 108926
512 211326
1024 416126
2048 825726
4096 1644926
8192 3283326
EOD
$e_cony_si_fix << EOD
8 6536
16 8200
32 11528
64 18184
128 31496
256 58120
512 111368
1024 217864
2048 430856
4096 856840
8192 1708808
EOD
$p_cony_si_fix << EOD
8 4872
16 4872
32 4872
64 4872
128 4872
256 4872
512 4872
1024 4872
2048 4872
4096 4872
8192 4872
EOD
$e_rf << EOD
8 5800
16 10600
32 20200
64 39400
128 77800
256 154600
512 308200
1024 615400
2048 1229800
4096 2458600
8192 4916200
EOD
$e_corf_si << EOD
8 4872
16 6536
32 9864
64 16520
128 29832
256 56456
512 109704
1024 216200
2048 429192
4096 855176
8192 1707144
EOD
$e_corf_re << EOD
8 4928
16 6656
32 10112
64 17024
128 30848
256 58496
512 113792
1024 224384
2048 445568
4096 887936
8192 1772672
EOD
set title 'Random features beside Nyström: cost per step against n (d = 200, m = 8)' . "\n" . 'Memory kept between steps (valley), one layer (d = 200, m = 8)' noenhanced
set xlabel 'n (tokens in the window)'
set ylabel 'memory held between steps (values)'
set logscale xy
set format y '10^{%L}'
set xtics ('8' 8, '16' 16, '32' 32, '64' 64, '128' 128, '256' 256, '512' 512, '1024' 1024, '2048' 2048, '4096' 4096, '8192' 8192)
set mxtics default
set grid xtics ytics mytics lc rgb '#dddddd'
set key outside right top noenhanced spacing 1.2
set autoscale fix
set offsets graph 0.04, graph 0.04, graph 0.06, graph 0.06
set border lw 1.2
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
  set terminal pngcairo size 1100,680 font 'DejaVu Sans,12'
} else {
  set terminal png size 1100,680
}
set output png
plot \
  $p_att with lines lw 4 lc rgb '#70000000' dt (9,6) notitle, \
  $p_co_si with lines lw 4 lc rgb '#70009e73' dt (9,6) notitle, \
  $p_ny with lines lw 4 lc rgb '#70e69f00' dt (9,6) notitle, \
  $p_cony_si_cont with lines lw 4 lc rgb '#70d55e00' dt (9,6) notitle, \
  $p_cony_si_fix with lines lw 4 lc rgb '#70999933' dt (9,6) notitle, \
  $e_att with linespoints lw 2 lc rgb '#000000' pt 5 ps 1.1 dt 1 title 'att', \
  $e_co_si with linespoints lw 2 lc rgb '#009e73' pt 11 ps 1.1 dt 1 title 'co_si', \
  $e_ny with linespoints lw 2 lc rgb '#e69f00' pt 7 ps 1.1 dt 1 title 'ny', \
  $e_cony_si_cont with linespoints lw 2 lc rgb '#d55e00' pt 4 ps 1.1 dt 1 title 'cony_si_cont', \
  $e_cony_si_fix with linespoints lw 2 lc rgb '#999933' pt 8 ps 1.1 dt 1 title 'cony_si_fix', \
  $e_rf with linespoints lw 2 lc rgb '#44aa99' pt 3 ps 1.1 dt 1 title 'rf', \
  $e_corf_si with linespoints lw 2 lc rgb '#117733' pt 2 ps 1.1 dt 1 title 'corf_si', \
  $e_corf_re with linespoints lw 2 lc rgb '#aa4499' pt 10 ps 1.1 dt 1 title 'corf_re', \
  NaN with lines lw 2 lc rgb 'black' dt 1 title 'executed (counted)', \
  NaN with lines lw 4 lc rgb '#70000000' dt (9,6) title 'published formula (mac)'
set output
if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
  set terminal pdfcairo size 7in,4.3in font 'DejaVu Sans,9'
  set output pdf
  replot
  set output
}
