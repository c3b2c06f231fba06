# Nyström paper, Figs. 5-7: cost per step against the number of landmarks m FLOPs per step against m, THUMOS14 shape (n = 64, d = 1024), two layers; FLOPs in convention all: every executed operation
# Written by cosda report configs/nystrom_landmarks.toml from points.csv; data inline. Executed counts solid
# (FLOPs in convention all), published formulas dashed (FLOPs from the Nyström paper, App. A (continual landmarks: one refresh every n/m steps, the other steps as the fixed-landmark update); memory from App. B), in the
# paper's convention mac, beside executed FLOPs in it dotted.
# Fixed: d = 1024, layers = 2, n = 64.
if (!exists("png")) png = 'flops_vs_m_thumos_2layer.png'
if (!exists("pdf")) pdf = 'flops_vs_m_thumos_2layer.pdf'
$c_att << EOD
2 17047680
4 17047680
8 17047680
16 17047680
32 17047680
64 17047680
EOD
$e_att << EOD
2 33693696
4 33693696
8 33693696
16 33693696
32 33693696
64 33693696
EOD
$p_att << EOD
2 16916608
4 16916608
8 16916608
16 16916608
32 16916608
64 16916608
EOD
$c_co_si << EOD
2 589119
4 589119
8 589119
16 589119
32 589119
64 589119
EOD
$e_co_si << EOD
2 1107261
4 1107261
8 1107261
16 1107261
32 1107261
64 1107261
EOD
$p_co_si << EOD
2 653694
4 653694
8 653694
16 653694
32 653694
64 653694
EOD
$c_ny << EOD
2 1202004
4 2292664
8 4542768
16 9382624
32 20937024
64 55673344
EOD
$e_ny << EOD
2 2378016
4 4533376
8 8980992
16 18552832
32 41435136
64 110411776
EOD
$p_ny << EOD
2 1320632
4 2399056
8 4625312
16 9419968
32 20893952
64 55509376
EOD
$c_ny_fix << EOD
2 1054084
4 2109064
8 4222096
16 8460448
32 16986304
64 34234624
EOD
$e_ny_fix << EOD
2 1967616
4 4068352
8 8275968
16 16715776
32 33693696
64 68042752
EOD
$p_ny_fix << EOD
2 1049732
4 2100360
8 4204688
16 8425632
32 16916672
64 34095360
EOD
$c_cony_si_cont << EOD
2 417071.2812
4 711814.6875
8 1336203.875
16 2779820.75
32 7000047.5
64 26561597
EOD
$e_cony_si_cont << EOD
2 773744.0938
4 1367401.438
8 2624922.875
16 5518253.75
32 13839675.5
64 52665143
EOD
$p_cony_si_cont << EOD
2 185238.6875
4 380351.75
8 802535
16 1807196
32 4959344
64 23718848
EOD
$c_cony_si_fix << EOD
2 340250
4 614978
8 1164482
16 2263682
32 4462850
64 8864258
EOD
$e_cony_si_fix << EOD
2 611676
4 1158936
8 2253552
16 4443168
32 8823936
64 17591616
EOD
$p_cony_si_fix << EOD
2 157728
4 315472
8 631008
16 1262272
32 2525568
64 5055232
EOD
set title 'Nyström paper, Figs. 5-7: cost per step against the number of landmarks m' . "\n" . 'FLOPs per step against m, THUMOS14 shape (n = 64, d = 1024), two layers; FLOPs in convention all: every executed operation' noenhanced
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
