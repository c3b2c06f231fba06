# Continual Transformers paper, Fig. 3 and Sec. 3.4: FLOPs per step and memory CoTrans Fig. 3(b): peak memory against d (n = 256)
# Written by cosda report configs/cotrans_fig3.toml from points.csv; data inline. Executed counts solid
# (FLOPs in convention all), published formulas dashed (FLOPs from the CoTrans paper, Sec. 3.1-3.3, as mul + add + exp (its Sec. 3.4 convention); memory from the Nyström paper, App. B (the CoTrans paper gives no memory formulas for all three variants)), in the
# paper's convention cotrans.
# Fixed: n = 256.
if (!exists("png")) png = 'fig3b_memory_vs_d.png'
if (!exists("pdf")) pdf = 'fig3b_memory_vs_d.pdf'
$e_att << EOD
16 82144
32 98496
64 131200
128 196608
256 327424
512 589312
1024 1113088
2048 2160640
4096 4255744
EOD
$p_att << EOD
16 81921
32 98305
64 131073
128 196609
256 327681
512 589825
1024 1114113
2048 2162689
4096 4259841
EOD
$e_co_re << EOD
16 20959
32 41407
64 82303
128 164095
256 327679
512 654847
1024 1309183
2048 2617855
4096 5235199
EOD
$p_co_re << EOD
16 20992
32 41472
64 82432
128 164352
256 328192
512 655872
1024 1311232
2048 2621952
4096 5243392
EOD
$e_co_si << EOD
16 8464
32 16672
64 33088
128 65920
256 131584
512 263168
1024 526336
2048 1052672
4096 2105344
EOD
$p_co_si << EOD
16 8480
32 16704
64 33152
128 66048
256 131840
512 263424
1024 526592
2048 1052928
4096 2105600
EOD
set title 'Continual Transformers paper, Fig. 3 and Sec. 3.4: FLOPs per step and memory' . "\n" . 'CoTrans Fig. 3(b): peak memory against d (n = 256)' noenhanced
set xlabel 'd (features, all heads)'
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
