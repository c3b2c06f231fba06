# Peak memory, one layer (d = 200, m = 8)
# Written by cosda report configs/random_features.toml from points.csv; data inline. Executed counts solid,
# published formulas dashed (FLOPs from the Nyström paper, App. A (continual landmarks: one refresh every n/m steps, the other steps as the fixed-landmark update); memory from App. B).
# Fixed: layers = 1.
if (!exists("png")) png = 'rf_peak_1layer.png'
if (!exists("pdf")) pdf = 'rf_peak_1layer.pdf'
$e_att << EOD
8 6472
16 13072
32 26656
64 55360
128 118912
256 270592
512 672256
1024 1868800
2048 5834752
4096 20058112
8192 73670656
EOD
$p_att << EOD
8 6465
16 13057
32 26625
64 55297
128 118785
256 270337
512 671745
1024 1867777
2048 5832705
4096 20054017
8192 73662465
EOD
$e_co_si << EOD
8 3608
16 6816
32 13232
64 26064
128 51728
256 103056
512 205712
1024 411024
2048 821648
4096 1642896
8192 3285392
EOD
$p_co_si << EOD
8 3608
16 6816
32 13232
64 26064
128 51728
256 103056
512 205712
1024 411024
2048 821648
4096 1642896
8192 3285392
EOD
$e_ny << EOD
8 11720
16 18320
32 31520
64 57920
128 110720
256 216320
512 427520
1024 849920
2048 1694720
4096 3384320
8192 6763520
EOD
$p_ny << EOD
8 10121
16 16649
32 29705
64 55817
128 108041
256 212489
512 421385
1024 839177
2048 1674761
4096 3345929
8192 6688265
EOD
$e_cony_si_cont << EOD
8 10176
16 13576
32 20376
64 33976
128 61176
256 115576
512 224376
1024 441976
2048 878064
4096 1750512
8192 3495408
EOD
$p_cony_si_cont << EOD
8 10352
16 13624
32 20168
64 33256
128 59432
256 111784
512 216488
1024 425896
2048 844712
4096 1682344
8192 3357608
EOD
$e_cony_si_fix << EOD
8 10104
16 13304
32 19704
64 32504
128 58104
256 109304
512 211704
1024 416504
2048 826104
4096 1645304
8192 3283704
EOD
$p_cony_si_fix << EOD
8 5080
16 5080
32 5080
64 5080
128 5080
256 5080
512 5080
1024 5080
2048 5080
4096 5080
8192 5080
EOD
$e_rf << EOD
8 9752
16 16296
32 29384
64 55560
128 107912
256 212616
512 422024
1024 840840
2048 1678472
4096 3353736
8192 6704264
EOD
$e_corf_si << EOD
8 5089
16 6753
32 10081
64 16737
128 30049
256 56673
512 109921
1024 216417
2048 429409
4096 855393
8192 1707361
EOD
$e_corf_re << EOD
8 6552
16 9888
32 16560
64 29904
128 56592
256 109968
512 216720
1024 430224
2048 857232
4096 1711248
8192 3419280
EOD
set title 'Peak memory, one layer (d = 200, m = 8)' noenhanced
set xlabel 'n (tokens in the window)'
set ylabel 'peak memory (values)'
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
  NaN with lines lw 4 lc rgb '#70000000' dt (9,6) title 'published formula'
set output
if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
  set terminal pdfcairo size 7in,4.3in font 'DejaVu Sans,9'
  set output pdf
  replot
  set output
}
