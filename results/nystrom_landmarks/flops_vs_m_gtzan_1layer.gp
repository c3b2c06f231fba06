# Nyström paper, Figs. 5-7: cost per step against the number of landmarks m FLOPs per step against m, GTZAN shape (n = 120, d = 192), one layer; FLOPs in convention all: every executed operation
# Written by cosda report configs/nystrom_landmarks.toml from points.csv; data inline. Executed counts solid
# (FLOPs in convention all), published formulas dashed (FLOPs from the Nyström paper, App. A (continual landmarks: one refresh every n/m steps, the other steps as the fixed-landmark update); memory from App. B), in the
# paper's convention mac, beside executed FLOPs in it dotted.
# Fixed: d = 192, layers = 1, n = 120.
if (!exists("png")) png = 'flops_vs_m_gtzan_1layer.png'
if (!exists("pdf")) pdf = 'flops_vs_m_gtzan_1layer.pdf'
$c_att << EOD
2 5590200
4 5590200
8 5590200
16 5590200
32 5590200
64 5590200
EOD
$e_att << EOD
2 11096640
4 11096640
8 11096640
16 11096640
32 11096640
64 11096640
EOD
$p_att << EOD
2 5567160
4 5567160
8 5567160
16 5567160
32 5567160
64 5567160
EOD
$c_co_si << EOD
2 46585
4 46585
8 46585
16 46585
32 46585
64 46585
EOD
$e_co_si << EOD
2 92472
4 92472
8 92472
16 92472
32 92472
64 92472
EOD
$p_co_si << EOD
2 69360
4 69360
8 69360
16 69360
32 69360
64 69360
EOD
$c_ny << EOD
2 210834
4 402228
8 800784
16 1693224
32 4117464
64 13587768
EOD
$e_ny << EOD
2 418096
4 797440
8 1587328
16 3356416
32 8167936
64 27013120
EOD
$p_ny << EOD
2 232532
4 422688
8 819080
16 1708440
32 4131512
64 13619448
EOD
$c_ny_fix << EOD
2 186026
4 372892
8 749504
16 1514248
32 3089816
64 6425272
EOD
$e_ny_fix << EOD
2 347040
4 719040
8 1468800
16 2991360
32 6128640
64 12771840
EOD
$p_ny_fix << EOD
2 185402
4 371644
8 747008
16 1509256
32 3079832
64 6405304
EOD
$c_cony_si_cont << EOD
2 3290.016667
4 6468.9
8 13622.66667
16 39267.8
32 265649.2667
64 3488895.4
EOD
$e_cony_si_cont << EOD
2 6548.233333
4 12870.73333
8 27070.53333
16 77850.93333
32 527251.7333
64 6948331.733
EOD
$p_cony_si_cont << EOD
2 4650.033333
4 10923.33333
8 28910.93333
16 94949.33333
32 478184.5333
64 4328725.333
EOD
$c_cony_si_fix << EOD
2 1935
4 3877
8 7785
16 15697
32 31905
64 65857
EOD
$e_cony_si_fix << EOD
2 3666
4 7540
8 15336
16 31120
32 63456
64 131200
EOD
$p_cony_si_fix << EOD
2 2704
4 5416
8 10864
16 21856
32 44224
64 90496
EOD
set title 'Nyström paper, Figs. 5-7: cost per step against the number of landmarks m' . "\n" . 'FLOPs per step against m, GTZAN shape (n = 120, d = 192), one layer; FLOPs in convention all: every executed operation' noenhanced
set xlabel 'm (landmarks or random features)'
set ylabel 'FLOPs per step (all)'
set logscale xy
set format y '10^{%L}'
set xtics ('2' 2, '4' 4, '8' 8, '16' 16, '32' 32, '64' 64)
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
  $p_ny_fix with lines lw 4 lc rgb '#7056b4e9' dt (9,6) notitle, \
  $p_cony_si_cont with lines lw 4 lc rgb '#70d55e00' dt (9,6) notitle, \
  $p_cony_si_fix with lines lw 4 lc rgb '#70999933' dt (9,6) notitle, \
  $c_att with lines lw 1 lc rgb '#000000' dt 3 notitle, \
  $e_att with linespoints lw 2 lc rgb '#000000' pt 5 ps 1.1 dt 1 title 'att', \
  $c_co_si with lines lw 1 lc rgb '#009e73' dt 3 notitle, \
  $e_co_si with linespoints lw 2 lc rgb '#009e73' pt 11 ps 1.1 dt 1 title 'co_si', \
  $c_ny with lines lw 1 lc rgb '#e69f00' dt 3 notitle, \
  $e_ny with linespoints lw 2 lc rgb '#e69f00' pt 7 ps 1.1 dt 1 title 'ny', \
  $c_ny_fix with lines lw 1 lc rgb '#56b4e9' dt 3 notitle, \
  $e_ny_fix with linespoints lw 2 lc rgb '#56b4e9' pt 9 ps 1.1 dt 1 title 'ny_fix', \
  $c_cony_si_cont with lines lw 1 lc rgb '#d55e00' dt 3 notitle, \
  $e_cony_si_cont with linespoints lw 2 lc rgb '#d55e00' pt 4 ps 1.1 dt 1 title 'cony_si_cont', \
  $c_cony_si_fix with lines lw 1 lc rgb '#999933' dt 3 notitle, \
  $e_cony_si_fix with linespoints lw 2 lc rgb '#999933' pt 8 ps 1.1 dt 1 title 'cony_si_fix', \
  NaN with lines lw 2 lc rgb 'black' dt 1 title 'executed (counted)', \
  NaN with lines lw 4 lc rgb '#70000000' dt (9,6) title 'published formula (mac)', \
  NaN with lines lw 1 lc rgb 'black' dt 3 title 'executed (mac)'
set output
if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
  set terminal pdfcairo size 7in,4.3in font 'DejaVu Sans,9'
  set output pdf
  replot
  set output
}
