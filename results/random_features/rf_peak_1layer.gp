# Random features beside Nyström: cost per step against n (d = 200, m = 8) Peak memory, one layer (d = 200, m = 8)
# Written by cosda report configs/random_features.toml from points.csv; data inline. Executed counts solid
# (FLOPs in convention all), published formulas dashed (FLOPs from the Nyström paper, App. A (continual landmarks: one refresh every n/m steps, the other steps as the fixed-landmark update); memory from App. B), in the
# paper's convention mac.
# Fixed: layers = 1.
if (!exists("png")) png = 'rf_peak_1layer.png'
if (!exists("pdf")) pdf = 'rf_peak_1layer.pdf'
$e_att << EOD
8 6264
16 12856
32 26424
64 55096
128 118584
256 270192
512 671856
1024 1868400
2048 5834352
4096 20057712
8192 73670256
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
8 3600
16 6800
32 13200
64 26000
128 51600
256 102856
512 205512
1024 410824
2048 821448
4096 1642696
8192 3285192
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
8 9464
16 15928
32 28856
64 54712
128 106424
256 209848
512 416696
1024 830392
2048 1657784
4096 3312568
8192 6622136
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
8 8470
16 12135
32 18535
64 31335
128 56935
256 108135
512 210647
1024 415959
2048 826583
4096 1647831
8192 3290327
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
8 7144
16 8808
32 12136
64 18792
128 32104
256 58728
512 111976
1024 218472
2048 431464
4096 857448
8192 1709416
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
8 9072
16 15536
32 28464
64 54320
128 106032
256 209456
512 416304
1024 830000
2048 1657840
4096 3314672
8192 6628336
EOD
$e_corf_si << EOD
8 5480
16 7144
32 10472
64 17128
128 30440
256 57064
512 110312
1024 216808
2048 429800
4096 855784
8192 1707752
EOD
$e_corf_re << EOD
8 6536
16 9864
32 16520
64 29832
128 56456
256 109704
512 216200
1024 429192
2048 855176
4096 1707144
8192 3411080
EOD
set title 'Random features beside Nyström: cost per step against n (d = 200, m = 8)' . "\n" . 'Peak memory, one layer (d = 200, m = 8)' noenhanced
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
  NaN with lines lw 4 lc rgb '#70000000' dt (9,6) title 'published formula (mac)'
set output
if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
  set terminal pdfcairo size 7in,4.3in font 'DejaVu Sans,9'
  set output pdf
  replot
  set output
}
