# Nyström paper, Fig. 4: cost per step against n (d = 200, m = 8) Fig. 4(b): FLOPs per step, two layers: retroactive then single-output block (d = 200, m = 8); FLOPs in convention all: every executed operation
# Written by cosda report configs/nystrom_fig4.toml from points.csv; data inline. Executed counts solid
# (FLOPs in convention all), published formulas dashed (FLOPs from the Nyström paper, App. A (continual landmarks: one refresh every n/m steps, the other steps as the fixed-landmark update); memory from App. B), in the
# paper's convention mac, beside executed FLOPs in it dotted.
# Fixed: layers = 2.
if (!exists("png")) png = 'fig4b_flops_2layer.png'
if (!exists("pdf")) pdf = 'fig4b_flops_2layer.pdf'
$c_att << EOD
8 57744
16 218144
32 846912
64 3336320
128 13242624
256 52765184
512 210650112
1024 841779200
2048 3365474304
4096 1.345861222e+10
8192 5.382787891e+10
EOD
$e_att << EOD
8 105728
16 416512
32 1653248
64 6587392
128 26298368
256 105091072
512 420159488
1024 1680228352
2048 6720094208
4096 2.687873843e+10
8192 1.075116769e+11
EOD
$p_att << EOD
8 54544
16 211744
32 834112
64 3310720
128 13191424
256 52662784
512 210445312
1024 841369600
2048 3364655104
4096 1.345697382e+10
8192 5.382460211e+10
EOD
$c_ny << EOD
8 168000
16 275024
32 489072
64 917168
128 1773360
256 3485744
512 6910512
1024 13760048
2048 27459120
4096 54857264
8192 109653552
EOD
$e_ny << EOD
8 314368
16 527872
32 954880
64 1808896
128 3516928
256 6932992
512 13765120
1024 27429376
2048 54757888
4096 109414912
8192 218728960
EOD
$p_ny << EOD
8 163120
16 273216
32 493408
64 933792
128 1814560
256 3576096
512 7099168
1024 14145312
2048 28237600
4096 56422176
8192 112791328
EOD
$c_ny_fix << EOD
8 107040
16 210864
32 418512
64 833808
128 1664400
256 3325584
512 6647952
1024 13292688
2048 26582160
4096 53161104
8192 106318992
EOD
$e_ny_fix << EOD
8 203904
16 407808
32 815616
64 1631232
128 3262464
256 6524928
512 13049856
1024 26099712
2048 52199424
4096 104398848
8192 208797696
EOD
$p_ny_fix << EOD
8 103712
16 207408
32 414800
64 829584
128 1659152
256 3318288
512 6636560
1024 13273104
2048 26546192
4096 53092368
8192 106184720
EOD
$c_co_si << EOD
8 14239
16 28679
32 57559
64 115319
128 230839
256 461879
512 923959
1024 1848119
2048 3696439
4096 7393079
8192 14786359
EOD
$e_co_si << EOD
8 25837
16 53077
32 107557
64 216517
128 434437
256 870277
512 1741957
1024 3485317
2048 6972037
4096 13945477
8192 27892357
EOD
$p_co_si << EOD
8 15646
16 31694
32 63790
64 127982
128 256366
256 513134
512 1026670
1024 2053742
2048 4107886
4096 8216174
8192 16432750
EOD
$c_cony_si_cont << EOD
8 90165
16 109915.5
32 160782.75
64 273140.875
128 503642.4375
256 965933.2188
512 1891158.609
1024 3741931.305
2048 7443637.652
4096 14847130.83
8192 29654157.41
EOD
$e_cony_si_cont << EOD
8 169039
16 210991.5
32 316243.75
64 537421.875
128 985114.9375
256 1883169.469
512 3680612.734
1024 7276166.367
2048 14467607.18
4096 28850655.59
8192 57616835.8
EOD
$p_cony_si_cont << EOD
8 110744
16 100620
32 114758
64 160227
128 259761.5
256 463128.75
512 872012.375
1024 1690854.188
2048 3329075.094
4096 6605785.547
8192 13159340.77
EOD
$c_cony_si_fix << EOD
8 37122
16 64450
32 119106
64 228418
128 447042
256 884290
512 1758786
1024 3507778
2048 7005762
4096 14001730
8192 27993666
EOD
$e_cony_si_fix << EOD
8 70688
16 123672
32 229640
64 441576
128 865448
256 1713192
512 3408680
1024 6799656
2048 13581608
4096 27145512
8192 54273320
EOD
$p_cony_si_fix << EOD
8 33824
16 46624
32 72224
64 123424
128 225824
256 430624
512 840224
1024 1659424
2048 3297824
4096 6574624
8192 13128224
EOD
set title 'Nyström paper, Fig. 4: cost per step against n (d = 200, m = 8)' . "\n" . 'Fig. 4(b): FLOPs per step, two layers: retroactive then single-output block (d = 200, m = 8); FLOPs in convention all: every executed operation' noenhanced
set xlabel 'n (tokens in the window)'
set ylabel 'FLOPs per step (all)'
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
  $p_ny with lines lw 4 lc rgb '#70e69f00' dt (9,6) notitle, \
  $p_ny_fix with lines lw 4 lc rgb '#7056b4e9' dt (9,6) notitle, \
  $p_co_si with lines lw 4 lc rgb '#70009e73' dt (9,6) notitle, \
  $p_cony_si_cont with lines lw 4 lc rgb '#70d55e00' dt (9,6) notitle, \
  $p_cony_si_fix with lines lw 4 lc rgb '#70999933' dt (9,6) notitle, \
  $c_att with lines lw 1 lc rgb '#000000' dt 3 notitle, \
  $e_att with linespoints lw 2 lc rgb '#000000' pt 5 ps 1.1 dt 1 title 'att', \
  $c_ny with lines lw 1 lc rgb '#e69f00' dt 3 notitle, \
  $e_ny with linespoints lw 2 lc rgb '#e69f00' pt 7 ps 1.1 dt 1 title 'ny', \
  $c_ny_fix with lines lw 1 lc rgb '#56b4e9' dt 3 notitle, \
  $e_ny_fix with linespoints lw 2 lc rgb '#56b4e9' pt 9 ps 1.1 dt 1 title 'ny_fix', \
  $c_co_si with lines lw 1 lc rgb '#009e73' dt 3 notitle, \
  $e_co_si with linespoints lw 2 lc rgb '#009e73' pt 11 ps 1.1 dt 1 title 'co_si', \
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
