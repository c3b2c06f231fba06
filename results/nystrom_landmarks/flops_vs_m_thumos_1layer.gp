# Nyström paper, Figs. 5-7: cost per step against the number of landmarks m FLOPs per step against m, THUMOS14 shape (n = 64, d = 1024), one layer; FLOPs in convention all: every executed operation
# Written by cosda report configs/nystrom_landmarks.toml from points.csv; data inline. Executed counts solid
# (FLOPs in convention all), published formulas dashed (FLOPs from the Nyström paper, App. A (continual landmarks: one refresh every n/m steps, the other steps as the fixed-landmark update); memory from App. B), in the
# paper's convention mac, beside executed FLOPs in it dotted.
# Fixed: d = 1024, layers = 1, n = 64.
if (!exists("png")) png = 'flops_vs_m_thumos_1layer.png'
if (!exists("pdf")) pdf = 'flops_vs_m_thumos_1layer.pdf'
$c_att << EOD
2 8523840
4 8523840
8 8523840
16 8523840
32 8523840
64 8523840
EOD
$e_att << EOD
2 16846848
4 16846848
8 16846848
16 16846848
32 16846848
64 16846848
EOD
$p_att << EOD
2 8458304
4 8458304
8 8458304
16 8458304
32 8458304
64 8458304
EOD
$c_co_si << EOD
2 133185
4 133185
8 133185
16 133185
32 133185
64 133185
EOD
$e_co_si << EOD
2 263232
4 263232
8 263232
16 263232
32 263232
64 263232
EOD
$p_co_si << EOD
2 196736
4 196736
8 196736
16 196736
32 196736
64 196736
EOD
$c_ny << EOD
2 601002
4 1146332
8 2271384
16 4691312
32 10468512
64 27836672
EOD
$e_ny << EOD
2 1189008
4 2266688
8 4490496
16 9276416
32 20717568
64 55205888
EOD
$p_ny << EOD
2 660316
4 1199528
8 2312656
16 4709984
32 10446976
64 27754688
EOD
$c_ny_fix << EOD
2 527042
4 1054532
8 2111048
16 4230224
32 8493152
64 17117312
EOD
$e_ny_fix << EOD
2 983808
4 2034176
8 4137984
16 8357888
32 16846848
64 34021376
EOD
$p_ny_fix << EOD
2 524866
4 1050180
8 2102344
16 4212816
32 8458336
64 17047680
EOD
$c_cony_si_cont << EOD
2 17466.15625
4 34261.8125
8 69948.625
16 164992.25
32 693023.5
64 6982334
EOD
$e_cony_si_cont << EOD
2 34784.4375
4 68219.625
8 139211.25
16 327982.5
32 1377021
64 13906554
EOD
$p_cony_si_cont << EOD
2 24795.0625
4 58146.75
8 151591
16 461004
32 1815376
64 11365248
EOD
$c_cony_si_fix << EOD
2 10255
4 20517
8 41065
16 82257
32 165025
64 332097
EOD
$e_cony_si_fix << EOD
2 19474
4 39988
8 81064
16 163408
32 328864
64 662848
EOD
$p_cony_si_fix << EOD
2 14352
4 28712
8 57456
16 115040
32 230592
64 463232
EOD
set title 'Nyström paper, Figs. 5-7: cost per step against the number of landmarks m' . "\n" . 'FLOPs per step against m, THUMOS14 shape (n = 64, d = 1024), one layer; FLOPs in convention all: every executed operation' noenhanced
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
