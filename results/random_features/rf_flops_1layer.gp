# Random features beside Nyström: cost per step against n (d = 200, m = 8) FLOPs per step, one layer: random features beside Nyström (d = 200, m = 8); FLOPs in convention all: every executed operation
# Written by cosda report configs/random_features.toml from points.csv; data inline. Executed counts solid
# (FLOPs in convention all), published formulas dashed (FLOPs from the Nyström paper, App. A (continual landmarks: one refresh every n/m steps, the other steps as the fixed-landmark update); memory from App. B), in the
# paper's convention mac, beside executed FLOPs in it dotted.
# Fixed: layers = 1.
if (!exists("png")) png = 'rf_flops_1layer.png'
if (!exists("pdf")) pdf = 'rf_flops_1layer.pdf'
$c_att << EOD
8 28872
16 109072
32 423456
64 1668160
128 6621312
256 26382592
512 105325056
1024 420889600
2048 1682737152
4096 6729306112
8192 2.691393946e+10
EOD
$e_att << EOD
8 52864
16 208256
32 826624
64 3293696
128 13149184
256 52545536
512 210079744
1024 840114176
2048 3360047104
4096 1.343936922e+10
8192 5.375583846e+10
EOD
$p_att << EOD
8 27272
16 105872
32 417056
64 1655360
128 6595712
256 26331392
512 105222656
1024 420684800
2048 1682327552
4096 6728486912
8192 2.691230106e+10
EOD
$c_co_si << EOD
8 3609
16 6817
32 13233
64 26065
128 51729
256 103057
512 205713
1024 411025
2048 821649
4096 1642897
8192 3285393
EOD
$e_co_si << EOD
8 6608
16 13016
32 25832
64 51464
128 102728
256 205256
512 410312
1024 820424
2048 1640648
4096 3281096
8192 6561992
EOD
$p_co_si << EOD
8 4816
16 9632
32 19264
64 38528
128 77056
256 154112
512 308224
1024 616448
2048 1232896
4096 2465792
8192 4931584
EOD
$c_ny << EOD
8 84000
16 137512
32 244536
64 458584
128 886680
256 1742872
512 3455256
1024 6880024
2048 13729560
4096 27428632
8192 54826776
EOD
$e_ny << EOD
8 157184
16 263936
32 477440
64 904448
128 1758464
256 3466496
512 6882560
1024 13714688
2048 27378944
4096 54707456
8192 109364480
EOD
$p_ny << EOD
8 81560
16 136608
32 246704
64 466896
128 907280
256 1788048
512 3549584
1024 7072656
2048 14118800
4096 28211088
8192 56395664
EOD
$c_cony_si_cont << EOD
8 28550
16 20835.5
32 16978.25
64 15049.625
128 14085.3125
256 13603.15625
512 13362.07812
1024 13241.53906
2048 13181.26953
4096 13151.13477
8192 13136.06738
EOD
$e_cony_si_cont << EOD
8 55370
16 40773
32 33474.5
64 29825.25
128 28000.625
256 27088.3125
512 26632.15625
1024 26404.07812
2048 26290.03906
4096 26233.01953
8192 26204.50977
EOD
$p_cony_si_cont << EOD
8 46208
16 37564
32 33242
64 31081
128 30000.5
256 29460.25
512 29190.125
1024 29055.0625
2048 28987.53125
4096 28953.76562
8192 28936.88281
EOD
$c_cony_si_fix << EOD
8 8105
16 8105
32 8105
64 8105
128 8105
256 8105
512 8105
1024 8105
2048 8105
4096 8105
8192 8105
EOD
$e_cony_si_fix << EOD
8 15968
16 15968
32 15968
64 15968
128 15968
256 15968
512 15968
1024 15968
2048 15968
4096 15968
8192 15968
EOD
$p_cony_si_fix << EOD
8 11312
16 11312
32 11312
64 11312
128 11312
256 11312
512 11312
1024 11312
2048 11312
4096 11312
8192 11312
EOD
$e_rf << EOD
8 104368
16 210344
32 422296
64 846200
128 1694008
256 3389624
512 6780856
1024 13563320
2048 27128248
4096 54258104
8192 108517816
EOD
$e_corf_si << EOD
8 16455
16 16455
32 16455
64 16455
128 16455
256 16455
512 16455
1024 16455
2048 16455
4096 16455
8192 16455
EOD
$e_corf_re << EOD
8 38967
16 64695
32 116151
64 219063
128 424887
256 836535
512 1659831
1024 3306423
2048 6599607
4096 13185975
8192 26358711
EOD
set title 'Random features beside Nyström: cost per step against n (d = 200, m = 8)' . "\n" . 'FLOPs per step, one layer: random features beside Nyström (d = 200, m = 8); FLOPs in convention all: every executed operation' noenhanced
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
  $p_co_si with lines lw 4 lc rgb '#70009e73' dt (9,6) notitle, \
  $p_ny with lines lw 4 lc rgb '#70e69f00' dt (9,6) notitle, \
  $p_cony_si_cont with lines lw 4 lc rgb '#70d55e00' dt (9,6) notitle, \
  $p_cony_si_fix with lines lw 4 lc rgb '#70999933' dt (9,6) notitle, \
  $c_att with lines lw 1 lc rgb '#000000' dt 3 notitle, \
  $e_att with linespoints lw 2 lc rgb '#000000' pt 5 ps 1.1 dt 1 title 'att', \
  $c_co_si with lines lw 1 lc rgb '#009e73' dt 3 notitle, \
  $e_co_si with linespoints lw 2 lc rgb '#009e73' pt 11 ps 1.1 dt 1 title 'co_si', \
  $c_ny with lines lw 1 lc rgb '#e69f00' dt 3 notitle, \
  $e_ny with linespoints lw 2 lc rgb '#e69f00' pt 7 ps 1.1 dt 1 title 'ny', \
  $c_cony_si_cont with lines lw 1 lc rgb '#d55e00' dt 3 notitle, \
  $e_cony_si_cont with linespoints lw 2 lc rgb '#d55e00' pt 4 ps 1.1 dt 1 title 'cony_si_cont', \
  $c_cony_si_fix with lines lw 1 lc rgb '#999933' dt 3 notitle, \
  $e_cony_si_fix with linespoints lw 2 lc rgb '#999933' pt 8 ps 1.1 dt 1 title 'cony_si_fix', \
  $e_rf with linespoints lw 2 lc rgb '#44aa99' pt 3 ps 1.1 dt 1 title 'rf', \
  $e_corf_si with linespoints lw 2 lc rgb '#117733' pt 2 ps 1.1 dt 1 title 'corf_si', \
  $e_corf_re with linespoints lw 2 lc rgb '#aa4499' pt 10 ps 1.1 dt 1 title 'corf_re', \
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
