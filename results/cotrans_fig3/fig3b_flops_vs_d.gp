# Continual Transformers paper, Fig. 3 and Sec. 3.4: FLOPs per step and memory CoTrans Fig. 3(b): FLOPs per step against d (n = 256); FLOPs in convention all: every executed operation
# Written by cosda report configs/cotrans_fig3.toml from points.csv; data inline. Executed counts solid
# (FLOPs in convention all), published formulas dashed (FLOPs from the CoTrans paper, Sec. 3.1-3.3, as mul + add + exp (its Sec. 3.4 convention); memory from the Nyström paper, App. B (the CoTrans paper gives no memory formulas for all three variants)), in the
# paper's convention cotrans, beside executed FLOPs in it dotted.
# Fixed: n = 256.
if (!exists("png")) png = 'fig3b_flops_vs_d.png'
if (!exists("pdf")) pdf = 'fig3b_flops_vs_d.pdf'
$c_att << EOD
16 4263936
32 8462336
64 16859136
128 33652736
256 67239936
512 134414336
1024 268763136
2048 537460736
4096 1074855936
EOD
$e_att << EOD
16 4263936
32 8462336
64 16859136
128 33652736
256 67239936
512 134414336
1024 268763136
2048 537460736
4096 1074855936
EOD
$p_att << EOD
16 4263680
32 8462080
64 16858880
128 33652480
256 67239680
512 134414080
1024 268762880
2048 537460480
4096 1074855680
EOD
$c_co_re << EOD
16 54141
32 107261
64 213501
128 425981
256 850941
512 1700861
1024 3400701
2048 6800381
4096 13599741
EOD
$e_co_re << EOD
16 54141
32 107261
64 213501
128 425981
256 850941
512 1700861
1024 3400701
2048 6800381
4096 13599741
EOD
$p_co_re << EOD
16 55147
32 108251
64 214459
128 426875
256 851707
512 1701371
1024 3400699
2048 6799355
4096 13596667
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
set title 'Continual Transformers paper, Fig. 3 and Sec. 3.4: FLOPs per step and memory' . "\n" . 'CoTrans Fig. 3(b): FLOPs per step against d (n = 256); FLOPs in convention all: every executed operation' noenhanced
set xlabel 'd (features, all heads)'
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
