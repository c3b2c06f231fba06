# Nyström paper, Figs. 5-7: cost per step against the number of landmarks m FLOPs per step against m, GTZAN shape (n = 120, d = 192), two layers; FLOPs in convention all: every executed operation
# Written by cosda report configs/nystrom_landmarks.toml from points.csv; data inline. Executed counts solid
# (FLOPs in convention all), published formulas dashed (FLOPs from the Nyström paper, App. A (continual landmarks: one refresh every n/m steps, the other steps as the fixed-landmark update); memory from App. B), in the
# paper's convention mac, beside executed FLOPs in it dotted.
# Fixed: d = 192, layers = 2, n = 120.
if (!exists("png")) png = 'flops_vs_m_gtzan_2layer.png'
if (!exists("pdf")) pdf = 'flops_vs_m_gtzan_2layer.pdf'
$c_att << EOD
2 11180400
4 11180400
8 11180400
16 11180400
32 11180400
64 11180400
EOD
$e_att << EOD
2 22193280
4 22193280
8 22193280
16 22193280
32 22193280
64 22193280
EOD
$p_att << EOD
2 11134320
4 11134320
8 11134320
16 11134320
32 11134320
64 11134320
EOD
$c_co_si << EOD
2 207767
4 207767
8 207767
16 207767
32 207767
64 207767
EOD
$e_co_si << EOD
2 390933
4 390933
8 390933
16 390933
32 390933
64 390933
EOD
$p_co_si << EOD
2 230734
4 230734
8 230734
16 230734
32 230734
64 230734
EOD
$c_ny << EOD
2 421668
4 804456
8 1601568
16 3386448
32 8234928
64 27175536
EOD
$e_ny << EOD
2 836192
4 1594880
8 3174656
16 6712832
32 16335872
64 54026240
EOD
$p_ny << EOD
2 465064
4 845376
8 1638160
16 3416880
32 8263024
64 27238896
EOD
$c_ny_fix << EOD
2 372052
4 745784
8 1499008
16 3028496
32 6179632
64 12850544
EOD
$e_ny_fix << EOD
2 694080
4 1438080
8 2937600
16 5982720
32 12257280
64 25543680
EOD
$p_ny_fix << EOD
2 370804
4 743288
8 1494016
16 3018512
32 6159664
64 12810608
EOD
$c_cony_si_cont << EOD
2 143211.2167
4 243050.7667
8 456398.8667
16 979367.8667
32 2828804.933
64 13921262.27
EOD
$e_cony_si_cont << EOD
2 264274.45
4 464650.3667
8 893111.4
16 1944209.467
32 5618847.2
64 27688173.87
EOD
$p_cony_si_cont << EOD
2 56225.16667
4 114307.0667
8 237375.4667
16 529073.0667
32 1567274.667
64 9707793.067
EOD
$c_cony_si_fix << EOD
2 118010
4 212994
8 403010
16 783234
32 1544450
64 3069954
EOD
$e_cony_si_fix << EOD
2 212020
4 401344
8 780088
16 1537960
32 3055240
64 6095944
EOD
$p_cony_si_fix << EOD
2 51104
4 102224
8 204512
16 409280
32 819584
64 1643264
EOD
set title 'Nyström paper, Figs. 5-7: cost per step against the number of landmarks m' . "\n" . 'FLOPs per step against m, GTZAN shape (n = 120, d = 192), two layers; FLOPs in convention all: every executed operation' noenhanced
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
