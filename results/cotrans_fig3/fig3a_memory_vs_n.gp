# Continual Transformers paper, Fig. 3 and Sec. 3.4: FLOPs per step and memory CoTrans Fig. 3(a): peak memory against n (d = 256)
# Written by cosda report configs/cotrans_fig3.toml from points.csv; data inline. Executed counts solid
# (FLOPs in convention all), published formulas dashed (FLOPs from the CoTrans paper, Sec. 3.1-3.3, as mul + add + exp (its Sec. 3.4 convention); memory from the Nyström paper, App. B (the CoTrans paper gives no memory formulas for all three variants)), in the
# paper's convention cotrans.
# Fixed: d = 256.
if (!exists("png")) png = 'fig3a_memory_vs_n.png'
if (!exists("pdf")) pdf = 'fig3a_memory_vs_n.pdf'
$e_att << EOD
16 16384
32 33536
64 69376
128 147200
256 327424
512 786432
1024 2097664
2048 6292992
4096 20975104
EOD
$p_att << EOD
16 16641
32 33793
64 69633
128 147457
256 327681
512 786433
1024 2097153
2048 6291457
4096 20971521
EOD
$e_co_re << EOD
16 19999
32 40511
64 81535
128 163583
256 327679
512 655871
1024 1312255
2048 2625023
4096 5250559
EOD
$p_co_re << EOD
16 20512
32 41024
64 82048
128 164096
256 328192
512 656384
1024 1312768
2048 2625536
4096 5251072
EOD
$e_co_si << EOD
16 8704
32 16896
64 33280
128 66048
256 131584
512 262912
1024 525568
2048 1050880
4096 2101504
EOD
$p_co_si << EOD
16 8720
32 16928
64 33344
128 66176
256 131840
512 263168
1024 525824
2048 1051136
4096 2101760
EOD
set title 'Continual Transformers paper, Fig. 3 and Sec. 3.4: FLOPs per step and memory' . "\n" . 'CoTrans Fig. 3(a): peak memory against n (d = 256)' noenhanced
set xlabel 'n (tokens in the window)'
set ylabel 'peak memory (values)'
set logscale xy
set format y '10^{%L}'
set xtics ('16' 16, '32' 32, '64' 64, '128' 128, '256' 256, '512' 512, '1024' 1024, '2048' 2048, '4096' 4096)
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
  $p_co_re with lines lw 4 lc rgb '#700072b2' dt (9,6) notitle, \
  $p_co_si with lines lw 4 lc rgb '#70009e73' dt (9,6) notitle, \
  $e_att with linespoints lw 2 lc rgb '#000000' pt 5 ps 1.1 dt 1 title 'att', \
  $e_co_re with linespoints lw 2 lc rgb '#0072b2' pt 13 ps 1.1 dt 1 title 'co_re', \
  $e_co_si with linespoints lw 2 lc rgb '#009e73' pt 11 ps 1.1 dt 1 title 'co_si', \
  NaN with lines lw 2 lc rgb 'black' dt 1 title 'executed (counted)', \
  NaN with lines lw 4 lc rgb '#70000000' dt (9,6) title 'published formula (cotrans)'
set output
if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
  set terminal pdfcairo size 7in,4.3in font 'DejaVu Sans,9'
  set output pdf
  replot
  set output
}
