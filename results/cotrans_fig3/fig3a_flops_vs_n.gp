# Continual Transformers paper, Fig. 3 and Sec. 3.4: FLOPs per step and memory CoTrans Fig. 3(a): FLOPs per step against n (d = 256); FLOPs in convention all: every executed operation
# Written by cosda report configs/cotrans_fig3.toml from points.csv; data inline. Executed counts solid
# (FLOPs in convention all), published formulas dashed (FLOPs from the CoTrans paper, Sec. 3.1-3.3, as mul + add + exp (its Sec. 3.4 convention); memory from the Nyström paper, App. B (the CoTrans paper gives no memory formulas for all three variants)), in the
# paper's convention cotrans, beside executed FLOPs in it dotted.
# Fixed: d = 256.
if (!exists("png")) png = 'fig3a_flops_vs_n.png'
if (!exists("pdf")) pdf = 'fig3a_flops_vs_n.pdf'
$c_att << EOD
16 266496
32 1057792
64 4214784
128 16826368
256 67239936
512 268828672
1024 1075052544
2048 4299685888
4096 1.719769498e+10
EOD
$e_att << EOD
16 266496
32 1057792
64 4214784
128 16826368
256 67239936
512 268828672
1024 1075052544
2048 4299685888
4096 1.719769498e+10
EOD
$p_att << EOD
16 266480
32 1057760
64 4214720
128 16826240
256 67239680
512 268828160
1024 1075051520
2048 4299683840
4096 1.719769088e+10
EOD
$c_co_re << EOD
16 51261
32 104573
64 211197
128 424445
256 850941
512 1703933
1024 3409917
2048 6821885
4096 13645821
EOD
$e_co_re << EOD
16 51261
32 104573
64 211197
128 424445
256 850941
512 1703933
1024 3409917
2048 6821885
4096 13645821
EOD
$p_co_re << EOD
16 51067
32 104443
64 211195
128 424699
256 851707
512 1705723
1024 3413755
2048 6829819
4096 13661947
EOD
$c_co_si << EOD
16 16656
32 33056
64 65856
128 131456
256 262656
512 525056
1024 1049856
2048 2099456
4096 4198656
EOD
$e_co_si << EOD
16 16656
32 33056
64 65856
128 131456
256 262656
512 525056
1024 1049856
2048 2099456
4096 4198656
EOD
$p_co_si << EOD
16 16655
32 33055
64 65855
128 131455
256 262655
512 525055
1024 1049855
2048 2099455
4096 4198655
EOD
set title 'Continual Transformers paper, Fig. 3 and Sec. 3.4: FLOPs per step and memory' . "\n" . 'CoTrans Fig. 3(a): FLOPs per step against n (d = 256); FLOPs in convention all: every executed operation' noenhanced
set xlabel 'n (tokens in the window)'
set ylabel 'FLOPs per step (all)'
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
  $c_att with lines lw 1 lc rgb '#000000' dt 3 notitle, \
  $e_att with linespoints lw 2 lc rgb '#000000' pt 5 ps 1.1 dt 1 title 'att', \
  $c_co_re with lines lw 1 lc rgb '#0072b2' dt 3 notitle, \
  $e_co_re with linespoints lw 2 lc rgb '#0072b2' pt 13 ps 1.1 dt 1 title 'co_re', \
  $c_co_si with lines lw 1 lc rgb '#009e73' dt 3 notitle, \
  $e_co_si with linespoints lw 2 lc rgb '#009e73' pt 11 ps 1.1 dt 1 title 'co_si', \
  NaN with lines lw 2 lc rgb 'black' dt 1 title 'executed (counted)', \
  NaN with lines lw 4 lc rgb '#70000000' dt (9,6) title 'published formula (cotrans)', \
  NaN with lines lw 1 lc rgb 'black' dt 3 title 'executed (cotrans)'
set output
if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
  set terminal pdfcairo size 7in,4.3in font 'DejaVu Sans,9'
  set output pdf
  replot
  set output
}
