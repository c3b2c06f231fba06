# Nyström paper, Figs. 5-7: cost per step against the number of landmarks m Peak memory against m, GTZAN shape (n = 120, d = 192), one layer
# Written by cosda report configs/nystrom_landmarks.toml from points.csv; data inline. Executed counts solid
# (FLOPs in convention all), published formulas dashed (FLOPs from the Nyström paper, App. A (continual landmarks: one refresh every n/m steps, the other steps as the fixed-landmark update); memory from App. B), in the
# paper's convention mac.
# Fixed: d = 192, layers = 1, n = 120.
if (!exists("png")) png = 'peak_vs_m_gtzan_1layer.png'
if (!exists("pdf")) pdf = 'peak_vs_m_gtzan_1layer.pdf'
$e_att << EOD
2 106368
4 106368
8 106368
16 106368
32 106368
64 106368
EOD
$p_att << EOD
2 106561
4 106561
8 106561
16 106561
32 106561
64 106561
EOD
$e_co_si << EOD
2 46464
4 46464
8 46464
16 46464
32 46464
64 46464
EOD
$p_co_si << EOD
2 46584
4 46584
8 46584
16 46584
32 46584
64 46584
EOD
$e_ny << EOD
2 92976
4 93984
8 96000
16 100032
32 108096
64 124224
EOD
$p_ny << EOD
2 93435
4 94757
8 97545
16 103697
32 118305
64 156737
EOD
$e_ny_fix << EOD
2 92980
4 94384
8 97216
16 102976
32 114880
64 140224
EOD
$p_ny_fix << EOD
2 93417
4 94689
8 97281
16 102657
32 114177
64 140289
EOD
$e_cony_si_cont << EOD
2 48009
4 49187
8 51591
16 57038
32 70878
64 107774
EOD
$p_cony_si_cont << EOD
2 48204
4 50072
8 53976
16 62456
32 82104
64 132152
EOD
$e_cony_si_fix << EOD
2 25016
4 26424
8 29264
16 35040
32 46976
64 72384
EOD
$p_cony_si_fix << EOD
2 1352
4 2520
8 4880
16 9696
32 19712
64 41280
EOD
set title 'Nyström paper, Figs. 5-7: cost per step against the number of landmarks m' . "\n" . 'Peak memory against m, GTZAN shape (n = 120, d = 192), one layer' noenhanced
set xlabel 'm (landmarks or random features)'
set ylabel 'peak memory (values)'
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
  $e_att with linespoints lw 2 lc rgb '#000000' pt 5 ps 1.1 dt 1 title 'att', \
  $e_co_si with linespoints lw 2 lc rgb '#009e73' pt 11 ps 1.1 dt 1 title 'co_si', \
  $e_ny with linespoints lw 2 lc rgb '#e69f00' pt 7 ps 1.1 dt 1 title 'ny', \
  $e_ny_fix with linespoints lw 2 lc rgb '#56b4e9' pt 9 ps 1.1 dt 1 title 'ny_fix', \
  $e_cony_si_cont with linespoints lw 2 lc rgb '#d55e00' pt 4 ps 1.1 dt 1 title 'cony_si_cont', \
  $e_cony_si_fix with linespoints lw 2 lc rgb '#999933' pt 8 ps 1.1 dt 1 title 'cony_si_fix', \
  NaN with lines lw 2 lc rgb 'black' dt 1 title 'executed (counted)', \
  NaN with lines lw 4 lc rgb '#70000000' dt (9,6) title 'published formula (mac)'
set output
if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
  set terminal pdfcairo size 7in,4.3in font 'DejaVu Sans,9'
  set output pdf
  replot
  set output
}
